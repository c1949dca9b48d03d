// Target `ethos-u` (plugins/targets/ethos_u): tvmc's target string parsed,
// an unknown configuration refused with the ones there are; compiled, each
// shared model's NPU region becomes one Ethos-U operator the device report
// counts as the target's (SOFTMAX stays on the CPU with its reason), and the
// compiled graph gives TFLite Micro's bytes on every golden set.
#include <QtTest>

#include "analysis/ethosu_command_listing.h"
#include "driver/compile_driver.h"
#include "ethosu/region_compiler.h"
#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "target/device_report.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "targets/ethos_u/ethosu_operator_cycles.h"
#include "targets/ethos_u/ethosu_performance.h"
#include "targets/ethos_u/ethosu_target.h"
#include "test_data.h"

using namespace loupe;

namespace {}  // namespace

class EthosUTargetTest : public QObject {
  Q_OBJECT

 private slots:
  void theTargetStringIsTvmcs() {
    const auto registry = targets::builtinTargetRegistry();
    const auto targets =
        target::parseTargetString("ethos-u -accelerator_config=ethos-u55-256, c", registry);
    QCOMPARE(targets.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(targets[0]->displayName()), QString("Ethos-U ethos-u55-256"));
    QCOMPARE(QString::fromStdString(targets[0]->toString()),
             QString("ethos-u -accelerator_config=ethos-u55-256"));
    // The default configuration, and one there is not.
    QCOMPARE(
        QString::fromStdString(target::parseTargetString("ethos-u, c", registry)[0]->toString()),
        QString("ethos-u -accelerator_config=ethos-u55-128"));
    try {
      target::parseTargetString("ethos-u -accelerator_config=ethos-u55-512, c", registry);
      QFAIL("ethos-u55-512 was accepted");
    } catch (const target::TargetStringError& error) {
      QVERIFY2(QString(error.what()).contains("ethos-u55-256"), error.what());
    }
  }

  // Both systems: the NXP one's slow flash makes most weight buffering pay.
  void modelsCompileToOneEthosUOperatorAndGiveTfliteMicrosBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("target");
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized"}) {
      QTest::newRow(model) << model << "ethos-u -accelerator_config=ethos-u55-128, c";
      QTest::newRow((std::string(model) + " nxp-imx93").c_str())
          << model << "ethos-u -accelerator_config=ethos-u55-128 -system_config=nxp-imx93, c";
    }
  }

  void modelsCompileToOneEthosUOperatorAndGiveTfliteMicrosBytes() {
    QFETCH(QString, model);
    QFETCH(QString, target);
    const auto dir = test::modelsDir() / model.toStdString();
    const auto registry = targets::builtinTargetRegistry();
    driver::CompileRequest request{frontend::importTfliteFile((dir / "model.tflite").string()),
                                   target::parseTargetString(target.toStdString(), registry)};
    const driver::Compilation compilation = driver::compileModel(std::move(request));
    int npuOperators = 0;
    for (const ir::Operator& op : compilation.graph.operators) {
      if (op.type == ir::OpType::EthosU) {
        ++npuOperators;
        QCOMPARE(QString::fromStdString(op.placement.target), QString("ethos-u"));
      } else {
        QCOMPARE(QString::fromStdString(op.placement.target), QString("c"));
        // What the NPU did not take says why.
        QVERIFY(!op.placement.rejections.empty());
        QVERIFY2(op.placement.rejections.front().reasons.front().find("Ethos-U emitter") !=
                     std::string::npos,
                 op.placement.rejections.front().reasons.front().c_str());
      }
    }
    QCOMPARE(npuOperators, 1);
    QCOMPARE(compilation.devices.devices.front().operators, 1);

    for (const auto& entry : std::filesystem::directory_iterator(dir / "golden")) {
      reference::ReferenceInterpreter interpreter(compilation.graph);
      for (std::size_t i = 0; i < compilation.graph.inputs.size(); ++i) {
        interpreter.setInput(
            i, test::readBytes(entry.path() / ("input" + std::to_string(i) + ".bin")));
      }
      interpreter.invoke();
      for (std::size_t i = 0; i < compilation.graph.outputs.size(); ++i) {
        const auto golden = test::readBytes(entry.path() / ("output" + std::to_string(i) + ".bin"));
        const auto output = interpreter.output(i);
        QVERIFY2(std::equal(golden.begin(), golden.end(), output.begin(), output.end()),
                 qPrintable(QString::fromStdString(entry.path().filename().string())));
      }
    }
  }

  // The weight buffering the target chooses for a system: no plan it
  // could have taken instead (nothing buffered, every candidate's scales,
  // every candidate's all) costs less NPU cycles plus scratch bytes in that
  // system, and on NXP's system with its slow flash it buffers.
  void theChosenWeightBufferingCostsNoMoreThanTheOthers_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("nxp");
    for (const char* model : {"kws_ref_model", "ic_resnet8_int8", "vww_96_int8"}) {
      QTest::newRow(model) << model << false;
      QTest::newRow((std::string(model) + " nxp-imx93").c_str()) << model << true;
    }
  }

  void theChosenWeightBufferingCostsNoMoreThanTheOthers() {
    QFETCH(QString, model);
    QFETCH(bool, nxp);
    const ir::Graph graph = frontend::importTfliteFile(
        (test::modelsDir() / model.toStdString() / "model.tflite").string());
    int last = static_cast<int>(graph.operators.size()) - 1;
    if (graph.operators.back().type == ir::OpType::Softmax) --last;
    const auto registry = targets::builtinTargetRegistry();
    const auto targets =
        target::parseTargetString(std::string("ethos-u -accelerator_config=ethos-u55-128") +
                                      (nxp ? " -system_config=nxp-imx93" : ""),
                                  registry);
    const auto& npu = dynamic_cast<const targets::ethos_u::EthosUTarget&>(*targets.front());
    QCOMPARE(QString::fromStdString(npu.toString()).contains("nxp-imx93"), nxp);
    const ethosu::SystemConfig system = npu.system();
    const auto costOf = [&system](const ir::Graph& compiled) {
      const ir::Operator& op = compiled.operators.front();
      const auto estimate =
          ethosu::estimatePayload(analysis::ethosuPayloadOf(compiled, op), system);
      return estimate.npuCycles +
             std::uint64_t(std::get<ir::EthosUAttrs>(op.attributes).scratchBytes);
    };
    const ir::Graph chosen = (*npu.regionOperatorCompiler())(graph, 0, last);
    const auto& arch = npu.architecture();
    ethosu::ConstantBufferingPlan most =
        ethosu::NpuRegionCompiler(graph, 0, last, arch).bufferingCandidates();
    ethosu::ConstantBufferingPlan scales = most;
    for (auto& [index, buffering] : scales) buffering = ethosu::ConstantBuffering::Scales;
    const std::uint64_t cost = costOf(chosen);
    QVERIFY(cost <= costOf(ethosu::withNpuRegion(graph, 0, last, arch)));
    QVERIFY(cost <= costOf(ethosu::withNpuRegion(graph, 0, last, arch, scales)));
    QVERIFY(cost <= costOf(ethosu::withNpuRegion(graph, 0, last, arch, most)));
    if (nxp) {
      int dmas = 0;
      const auto payload = analysis::ethosuPayloadOf(chosen, chosen.operators.front());
      for (const auto& stream : payload.streams) {
        for (const auto& op : stream.operations) dmas += op.kind == LOUPE_ETHOSU_OPERATION_DMA;
      }
      QVERIFY(dmas > 0);
    }
  }

  // Per model operator NPU cycles of a region with a lookup-table operator
  // and a concatenation (three copies): one figure each, adding up to the
  // stream's NPU cycles, the copies all the concatenation's.
  void eachModelOperatorOfARegionHasItsCycles() {
    const ir::Quantization q = test::perTensor(0.05f, -3);
    test::GraphBuilder b;
    const int in0 = b.tensor("a", ir::DType::Int8, {1, 4, 5, 8}, q);
    const int in1 = b.tensor("b", ir::DType::Int8, {1, 4, 5, 16}, q);
    const int tanh = b.tensor("tanh", ir::DType::Int8, {1, 4, 5, 16}, q);
    const int out = b.tensor("out", ir::DType::Int8, {1, 4, 5, 32}, q);
    b.op(ir::OpType::Tanh, {in1}, {tanh});
    b.op(ir::OpType::Concatenation, {in0, tanh, in0}, {out}, ir::ConcatenationAttrs{3});
    const ir::Graph graph = b.inputs({in0, in1}).outputs({out}).build();
    const ir::Graph compiled =
        ethosu::withNpuRegion(graph, 0, 1, *ethosu::findNpuArchitecture("ethos-u55-128"));
    const ir::Operator& npu = compiled.operators.front();
    const auto figures = targets::ethos_u::npuCyclesPerModelOperator(compiled, npu);
    QCOMPARE(figures.size(), std::size_t{2});
    const auto payload = analysis::ethosuPayloadOf(compiled, npu);
    const auto estimate =
        ethosu::estimatePayload(payload, ethosu::velaDefaultSystem(ethosu::npuConfigOf(payload)));
    std::uint64_t sum = 0;
    for (const auto& figure : figures) {
      QVERIFY(figure.npuCycles > 0);
      sum += figure.npuCycles;
    }
    QCOMPARE(sum, estimate.npuCycles);
    QCOMPARE(figures[1].npuOperations, 3);
  }

  // Operations over an upscaled IFM (a RESIZE_NEAREST_NEIGHBOR x2, NEAREST;
  // a TRANSPOSE_CONV of stride 2, ZEROS, whose IFM is the resized map in
  // bricks) give the reference's bytes and are estimated: each model
  // operator has its cycles, and the resize's pool reads the IFM in memory,
  // not the four times larger map its kernel moves over (the IFM blocks
  // halved, as Vela's _get_ifm_blocksize has them, and no larger than the
  // IFM).
  void upscaledOperationsAreEstimatedByTheIfmInMemory_data() {
    QTest::addColumn<int>("side");
    QTest::newRow("16x16") << 16;
    QTest::newRow("4x4") << 4;
  }

  void upscaledOperationsAreEstimatedByTheIfmInMemory() {
    QFETCH(int, side);
    const ir::Quantization q = test::perTensor(0.05f, -3);
    test::GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, side, side, 32}, q);
    const int size =
        b.constant("size", ir::DType::Int32, {2}, std::vector<std::int32_t>{2 * side, 2 * side});
    const int resized = b.tensor("resized", ir::DType::Int8, {1, 2 * side, 2 * side, 32}, q);
    const int shape = b.constant("output_shape", ir::DType::Int32, {4},
                                 std::vector<std::int32_t>{1, 4 * side, 4 * side, 16});
    std::vector<std::int8_t> weights(16 * 3 * 3 * 32);
    for (std::size_t i = 0; i < weights.size(); ++i) {
      weights[i] = static_cast<std::int8_t>(int(i * 37 % 255) - 127);
    }
    const int filter =
        b.constant("filter", ir::DType::Int8, {16, 3, 3, 32}, weights, test::perTensor(0.002f, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 4 * side, 4 * side, 16}, q);
    ir::OptionAttrs options;
    options.set("align_corners", 0).set("half_pixel_centers", 0);
    b.op(ir::OpType::ResizeNearestNeighbor, {in, size}, {resized}, options);
    ir::TransposeConvAttrs attrs;
    attrs.strideH = attrs.strideW = 2;
    b.op(ir::OpType::TransposeConv, {shape, filter, resized}, {out}, attrs);
    const ir::Graph graph = b.inputs({in}).outputs({out}).build();
    std::vector<std::uint8_t> input(static_cast<std::size_t>(side * side * 32));
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i * 13);
    const auto run = [&input](const ir::Graph& g) {
      reference::ReferenceInterpreter interpreter(g);
      interpreter.setInput(0, input);
      interpreter.invoke();
      const auto bytes = interpreter.output(0);
      return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
    };
    const auto expected = run(graph);
    for (const char* name : {"ethos-u55-32", "ethos-u55-128", "ethos-u65-512"}) {
      const ir::Graph compiled =
          ethosu::withNpuRegion(graph, 0, 1, *ethosu::findNpuArchitecture(name));
      QVERIFY2(run(compiled) == expected, name);
      const ir::Operator& npu = compiled.operators.front();
      const auto figures = targets::ethos_u::npuCyclesPerModelOperator(compiled, npu);
      QCOMPARE(figures.size(), std::size_t{2});
      for (const auto& figure : figures) QVERIFY2(figure.npuCycles > 0, name);
      const auto payload = analysis::ethosuPayloadOf(compiled, npu);
      const auto estimate =
          ethosu::estimatePayload(payload, ethosu::velaDefaultSystem(ethosu::npuConfigOf(payload)));
      const ethosu::OperationEstimate* pool = nullptr;
      for (const auto& operation : estimate.operations) {
        if (operation.kind == LOUPE_ETHOSU_OPERATION_POOL) pool = &operation;
      }
      QVERIFY(pool != nullptr);
      std::uint64_t read = 0;
      for (const auto& traffic : pool->memory) read += traffic.bytesRead;
      const auto ifmBytes = static_cast<std::uint64_t>(side * side * 32);
      qInfo("%s: %dx%d IFM of %llu bytes, %llu read", name, side, side,
            static_cast<unsigned long long>(ifmBytes), static_cast<unsigned long long>(read));
      QVERIFY2(read >= ifmBytes && read < 2 * ifmBytes,
               (std::string(name) + ": " + std::to_string(read) + " bytes read").c_str());
      // The 4x4 map lies inside one block: read once, whole (the halved
      // block of the upscaled 8x8 would be 5x5).
      if (side == 4) QCOMPARE(read, ifmBytes);
    }
  }

  // The Ethos-U operator's estimate is its own stream's; another
  // configuration compiles its region again (more MACs, fewer cycles); an
  // operator of the model alone is estimated as a region of its own.
  void theEstimateIsTheStreamsAndEachConfigurationCompilesTheRegionAgain() {
    const auto registry = targets::builtinTargetRegistry();
    const ir::Graph model =
        frontend::importTfliteFile((test::modelsDir() / "kws_ref_model" / "model.tflite").string());
    const target::TargetList targets =
        target::parseTargetString("ethos-u -accelerator_config=ethos-u55-128, c", registry);
    const driver::Compilation compilation = driver::compileModel({model, targets});
    const ir::Operator& npu = compilation.graph.operators.front();
    QCOMPARE(npu.type, ir::OpType::EthosU);
    const target::OperatorPlacementRow& row = compilation.devices.operators.front();
    QCOMPARE(QString::fromStdString(row.device), QString("ethos-u"));
    QCOMPARE(QString::fromStdString(row.region), QString("ethos-u_0"));
    QVERIFY(row.estimate.has_value());
    QCOMPARE(row.estimate->macs, row.macs);
    QVERIFY(row.estimate->estimatedCycles > 0);
    QVERIFY(row.estimate->encodedWeightBytes > 0 && row.estimate->rawWeightBytes > 0);
    QCOMPARE(compilation.devices.devices.front().estimatedCycles, row.estimate->estimatedCycles);

    const auto sweep =
        target::estimatesAcrossConfigurations(compilation.graph, *targets.front(), registry);
    QCOMPARE(sweep.size(), std::size_t{6});
    std::vector<std::int64_t> cycles;
    for (const target::ConfigurationEstimates& column : sweep) {
      QVERIFY2(column.cyclesByOperator.front().has_value(), column.label.c_str());
      QCOMPARE(column.cyclesByOperator.size(), std::size_t{1});  // SOFTMAX in the region too
      cycles.push_back(*column.cyclesByOperator.front());
    }
    QCOMPARE(sweep[2].label, std::string("ethos-u55-128"));
    QCOMPARE(cycles[2], row.estimate->estimatedCycles);
    QVERIFY(cycles[0] > cycles[1] && cycles[1] > cycles[2] && cycles[2] > cycles[3]);

    const auto convolution = targets.front()->estimate(model, model.operators.front());
    QVERIFY(convolution.has_value());
    QVERIFY(convolution->estimatedCycles > 0 &&
            convolution->estimatedCycles < row.estimate->estimatedCycles);
    QCOMPARE(convolution->macs, std::int64_t{320000});
    // SOFTMAX alone, as a region of its own: its 31 operations.
    const auto softmax = targets.front()->estimate(model, model.operators.back());
    QVERIFY(softmax.has_value() && softmax->estimatedCycles > 0);
    QVERIFY(softmax->estimatedCycles < convolution->estimatedCycles);
  }
};

QTEST_GUILESS_MAIN(EthosUTargetTest)
#include "ethosu_target_test.moc"
