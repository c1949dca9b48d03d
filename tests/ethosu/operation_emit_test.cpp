// The emitter's operations on the real NPU format: every convolution,
// depthwise convolution, fully connected layer, pool and ADD of the shared
// int8 models, and ADD, SUB and MUL cases of their own (scales either way,
// broadcasting either input), lowered to one Ethos-U operation (registers,
// mlw weights, scale records, a block whose SHRAM layout fits), wrapped in
// a driver payload for each configuration, parsed and run by
// the functional model as the driver would: its output is the reference
// interpreter's, byte for byte. And the SHRAM layout rules give the banks
// Vela wrote for every block of its own streams.
#include <QtTest>

#include <cstring>
#include <random>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/block_config.h"
#include "ethosu/command_stream_writer.h"
#include "ethosu/convolution_lowering.h"
#include "ethosu/driver_payload.h"
#include "ethosu/elementwise_lowering.h"
#include "ethosu/pool_lowering.h"
#include "ethosu/region_compiler.h"
#include "ethosu/register_emitter.h"
#include "ethosu_test_model.h"
#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "loupe/ethosu/ethosu_execute.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using namespace loupe;
using namespace loupe::ethosu;

namespace {

std::uint64_t alignUp(std::uint64_t n) {
  return (n + 15) / 16 * 16;
}

// Runs `payload` on the functional model with `flash` as region 0 and
// `scratch` as region 1; the error message or "".
std::string runOnFunctionalModel(const NpuArchitecture& arch,
                                 const std::vector<std::uint8_t>& payload,
                                 std::vector<std::uint8_t>& flash,
                                 std::vector<std::uint8_t>& scratch) {
  const std::uint8_t* stream = nullptr;
  std::uint32_t words = 0;
  loupe_ethosu_error err{};
  if (loupe_ethosu_payload_parse(payload.data(), payload.size(), &arch.config, &stream, &words,
                                 &err) != LOUPE_ETHOSU_OK) {
    return err.message;
  }
  static std::vector<std::int16_t> workspace(std::size_t{1} << 22);
  static loupe_ethosu_machine machine;
  loupe_ethosu_machine_init(&machine, &arch.config, workspace.data(),
                            static_cast<std::uint32_t>(workspace.size()));
  machine.regions[0] = {flash.data(), flash.size()};
  machine.regions[1] = {scratch.data(), scratch.size()};
  loupe_ethosu_command_decoder decoder;
  loupe_ethosu_command_decoder_init(&decoder, stream, words);
  loupe_ethosu_operation op;
  int status;
  while ((status = loupe_ethosu_command_decoder_next(&decoder, &op, &err)) == 1) {
    if (loupe_ethosu_execute(&machine, &op, &err) != LOUPE_ETHOSU_OK) return err.message;
  }
  return status < 0 ? err.message : "";
}

// One lowered operation run alone from its own payload: the constants as
// the flash (appendConstants: scale records, then weights, each on 16 bytes), each input's
// bytes at its map's base in the scratch (the rest 0xA5); the OFM's bytes,
// or the functional model's error in `error`.
std::vector<std::uint8_t> runAlone(
    const NpuArchitecture& arch, LoweredOperation lowered,
    const std::vector<std::pair<NpuFeatureMap, std::span<const std::uint8_t>>>& inputs,
    std::string& error) {
  std::vector<std::uint8_t> flash;
  if (lowered.hasConstants()) appendConstants(lowered, flash);
  CommandStreamWriter writer;
  if (arch.cores > 1) emitParallelMode(writer, arch.cores);
  emitNpuOperation(writer, lowered.operation);
  emitStop(writer);
  const std::vector<std::uint8_t> payload = driverPayload(arch.config, writer.words());
  const NpuFeatureMap& ofm = lowered.operation.ofm;
  std::vector<std::uint8_t> scratch(ofm.base + ofm.bytes(), 0xA5);
  for (const auto& [map, bytes] : inputs) {
    std::copy(bytes.begin(), bytes.end(), scratch.begin() + static_cast<std::ptrdiff_t>(map.base));
  }
  error = runOnFunctionalModel(arch, payload, flash, scratch);
  return {scratch.begin() + static_cast<std::ptrdiff_t>(ofm.base), scratch.end()};
}

}  // namespace

class EthosuOperationEmitTest : public QObject {
  Q_OBJECT

 private slots:
  void everyOperationGivesTheReferencesBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("accelerator");
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized"}) {
      for (const NpuArchitecture& arch : npuArchitectures()) {
        QTest::newRow((std::string(model) + " " + std::string(arch.name)).c_str())
            << model << arch.accelerator;
      }
    }
  }

  void everyOperationGivesTheReferencesBytes() {
    QFETCH(QString, model);
    QFETCH(int, accelerator);
    const NpuArchitecture& arch = *findNpuArchitecture(accelerator);
    const auto dir = test::modelsDir() / model.toStdString();
    const ir::Graph graph = frontend::importTfliteFile((dir / "model.tflite").string());
    reference::ReferenceInterpreter interpreter(graph);
    for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
      interpreter.setInput(
          i, test::readBytes(dir / "golden" / "seed1" / ("input" + std::to_string(i) + ".bin")));
    }
    interpreter.invoke();

    int emitted = 0, pools = 0, elementwise = 0;
    for (const ir::Operator& op : graph.operators) {
      const bool fullyConnected = op.type == ir::OpType::FullyConnected;
      const bool pool = op.type == ir::OpType::AveragePool2D || op.type == ir::OpType::MaxPool2D;
      const bool binary =
          op.type == ir::OpType::Add || op.type == ir::OpType::Sub || op.type == ir::OpType::Mul;
      if (op.type != ir::OpType::Conv2D && op.type != ir::OpType::DepthwiseConv2D &&
          !fullyConnected && !pool && !binary) {
        continue;
      }
      const NpuFeatureMap ifm = featureMapOf(graph, op.inputs[0], fullyConnected, 0);
      std::vector<std::pair<NpuFeatureMap, std::span<const std::uint8_t>>> inputs = {
          {ifm, interpreter.tensorBytes(op.inputs[0])}};
      std::uint64_t next = alignUp(ifm.bytes());
      if (binary) {
        inputs.push_back({featureMapOf(graph, op.inputs[1], false, next),
                          interpreter.tensorBytes(op.inputs[1])});
        next += alignUp(inputs.back().first.bytes());
      }
      const NpuFeatureMap ofm = featureMapOf(graph, op.outputs[0], fullyConnected, next);
      LoweredOperation lowered;
      if (pool) {
        lowered.operation = lowerPool(graph, op, arch, ifm, ofm);
        ++pools;
      } else if (binary) {
        lowered.operation =
            lowerElementwise(graph, op, arch, inputs[0].first, inputs[1].first, ofm);
        ++elementwise;
      } else {
        lowered = lowerConvolution(graph, op, arch, ifm, ofm);
      }
      std::string error;
      const std::vector<std::uint8_t> output = runAlone(arch, lowered, inputs, error);
      QVERIFY2(error.empty(),
               qPrintable(QString("operator %1: %2").arg(op.index).arg(error.c_str())));
      const auto expected = interpreter.tensorBytes(op.outputs[0]);
      QVERIFY2(std::equal(expected.begin(), expected.end(), output.begin()),
               qPrintable(QString("operator %1 (%2) differs from the reference")
                              .arg(op.index)
                              .arg(QString::fromStdString(op.typeName()))));
      ++emitted;
    }
    QVERIFY(emitted > 0);
    // kws, vww, ic and person_detect end in an average pool; ic adds its
    // skip connections.
    if (model != "ad01_int8" && model != "micro_speech_quantized") QVERIFY(pools > 0);
    if (model == "ic_resnet8_int8") QVERIFY(elementwise > 0);
  }

  // ADD, SUB and MUL by themselves: scales either way round and equal,
  // broadcasting of either input, a fused RELU; random int8 inputs.
  void elementwiseOperationsGiveTheReferencesBytes_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<QList<int>>("shape0");
    QTest::addColumn<QList<int>>("shape1");
    QTest::addColumn<double>("scale0");
    QTest::addColumn<double>("scale1");
    QTest::addColumn<bool>("relu");
    const QList<int> full{1, 5, 7, 20}, channels{1, 1, 1, 20}, pixel{1, 5, 7, 1};
    for (const auto& [name, type] :
         {std::pair{"add", int(ir::OpType::Add)}, std::pair{"sub", int(ir::OpType::Sub)},
          std::pair{"mul", int(ir::OpType::Mul)}}) {
      const std::string n = name;
      QTest::newRow((n + " first larger").c_str()) << type << full << full << 0.05 << 0.02 << false;
      QTest::newRow((n + " second larger").c_str())
          << type << full << full << 0.013 << 0.07 << false;
      QTest::newRow((n + " equal, relu").c_str()) << type << full << full << 0.03 << 0.03 << true;
      QTest::newRow((n + " second broadcast").c_str())
          << type << full << channels << 0.02 << 0.04 << false;
      QTest::newRow((n + " first broadcast").c_str())
          << type << pixel << full << 0.06 << 0.011 << true;
    }
  }

  void elementwiseOperationsGiveTheReferencesBytes() {
    QFETCH(int, type);
    QFETCH(QList<int>, shape0);
    QFETCH(QList<int>, shape1);
    QFETCH(double, scale0);
    QFETCH(double, scale1);
    QFETCH(bool, relu);
    const ir::Shape out{1, 5, 7, 20};
    test::GraphBuilder b;
    const int in0 = b.tensor("a", ir::DType::Int8, ir::Shape(shape0.begin(), shape0.end()),
                             test::perTensor(float(scale0), 7));
    const int in1 = b.tensor("b", ir::DType::Int8, ir::Shape(shape1.begin(), shape1.end()),
                             test::perTensor(float(scale1), -12));
    const int result = b.tensor("out", ir::DType::Int8, out,
                                test::perTensor(type == int(ir::OpType::Mul) ? 0.4f : 0.08f, 3));
    ir::ElementwiseAttrs attrs;
    attrs.activation = relu ? ir::Activation::Relu : ir::Activation::None;
    b.op(static_cast<ir::OpType>(type), {in0, in1}, {result}, attrs);
    const ir::Graph graph = b.inputs({in0, in1}).outputs({result}).build();
    reference::ReferenceInterpreter interpreter(graph);
    std::mt19937 random(static_cast<unsigned>(type * 131 + shape0[1] * 7 + int(relu)));
    std::vector<std::vector<std::uint8_t>> bytes;
    for (const int t : {in0, in1}) {
      bytes.emplace_back(static_cast<std::size_t>(graph.tensors[std::size_t(t)].elementCount()));
      for (auto& v : bytes.back()) v = static_cast<std::uint8_t>(random());
      interpreter.setInput(bytes.size() - 1, bytes.back());
    }
    interpreter.invoke();
    for (const NpuArchitecture& arch : npuArchitectures()) {
      const NpuFeatureMap map0 = featureMapOf(graph, in0, false, 0);
      const NpuFeatureMap map1 = featureMapOf(graph, in1, false, alignUp(map0.bytes()));
      const NpuFeatureMap ofm =
          featureMapOf(graph, result, false, map1.base + alignUp(map1.bytes()));
      LoweredOperation lowered;
      lowered.operation = lowerElementwise(graph, graph.operators.front(), arch, map0, map1, ofm);
      std::string error;
      const std::vector<std::uint8_t> output =
          runAlone(arch, lowered, {{map0, bytes[0]}, {map1, bytes[1]}}, error);
      QVERIFY2(error.empty(), error.c_str());
      const auto expected = interpreter.output(0);
      QVERIFY2(std::equal(expected.begin(), expected.end(), output.begin()),
               qPrintable(QString("differs on %1").arg(arch.name.data())));
    }
  }

  // The SHRAM layout rules checked against Vela's own streams: for the block
  // each of its operations runs in, the input banks' end and the
  // accumulators' start are the banks Vela wrote.
  void theShramLayoutOfVelasBlocksIsVelas() {
    int compared = 0;
    for (const auto& vela : test::ethosu::velaFiles()) {
      frontend::ImportOptions options;
      options.keepUnsupportedOperators = true;
      const ir::Graph graph = frontend::importTfliteFile(vela.path.string(), options);
      const NpuArchitecture& arch = *findNpuArchitecture(vela.accelerator);
      for (const ir::Operator& op : graph.operators) {
        if (op.type != ir::OpType::EthosU) continue;
        for (const auto& stream : analysis::ethosuPayloadOf(graph, op).streams) {
          for (const loupe_ethosu_operation& o : stream.operations) {
            if (o.kind != LOUPE_ETHOSU_OPERATION_CONV &&
                o.kind != LOUPE_ETHOSU_OPERATION_DEPTHWISE &&
                o.kind != LOUPE_ETHOSU_OPERATION_POOL) {
              continue;
            }
            BlockRequest request;
            request.kind = o.kind == LOUPE_ETHOSU_OPERATION_CONV        ? NpuBlockKind::Convolution
                           : o.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ? NpuBlockKind::Depthwise
                                                                        : NpuBlockKind::Pooling;
            request.ofm = {int(o.ofm.width), int(o.ofm.height), int(o.ofm.depth)};
            request.ifm = {int(o.ifm.width), int(o.ifm.height), int(o.ifm.depth)};
            request.ifmBits = o.ifm.precision_bits;
            request.kernelWidth = int(o.kernel_width);
            request.kernelHeight = int(o.kernel_height);
            request.strideX = o.stride_x;
            request.strideY = o.stride_y;
            request.usesLookupTable = o.activation_function >= 16;
            const NpuBlock ofmBlock{int(o.block_width), int(o.block_height), int(o.block_depth)};
            const auto layout = shramLayoutFor(
                arch, request, ofmBlock,
                ifmBlockFor(arch, request, ofmBlock, o.part_kernel_first != 0),
                o.acc_format == LOUPE_ETHOSU_acc_format_I40 ? ShramUse::Acc40 : ShramUse::Acc32);
            const QString where = QString("%1, %2 %3")
                                      .arg(vela.name.c_str(), loupe_ethosu_operation_name(&o))
                                      .arg(o.index);
            QVERIFY2(layout.has_value(), qPrintable(where + ": Vela's block does not fit"));
            QVERIFY2(layout->ibEnd == o.ib_end && layout->abStart == o.ab_start,
                     qPrintable(where + QString(": ib_end %1 ab_start %2, Vela %3 %4")
                                            .arg(layout->ibEnd)
                                            .arg(layout->abStart)
                                            .arg(o.ib_end)
                                            .arg(o.ab_start)));
            ++compared;
          }
        }
      }
    }
    QVERIFY(compared > 300);
  }

  // On the two-core U65-512 a convolution has a weight and a scale stream
  // per core, core c's holding output channels c, c+2, ...: the 64 channels
  // split 32/32, each core's records 32 x 10 bytes padded to 16.
  void aTwoCoreConvolutionHasAStreamPerCore() {
    const ir::Graph graph =
        frontend::importTfliteFile((test::modelsDir() / "kws_ref_model" / "model.tflite").string());
    const ir::Operator& conv = graph.operators.front();
    const NpuArchitecture& u65_512 = *findNpuArchitecture("ethos-u65-512");
    LoweredOperation lowered =
        lowerConvolution(graph, conv, u65_512, featureMapOf(graph, conv.inputs[0], false, 0),
                         featureMapOf(graph, conv.outputs[0], false, 4096));
    QCOMPARE(lowered.operation.weightStreams, 2);
    for (std::size_t core = 0; core < 2; ++core) {
      QVERIFY(!lowered.weights[core].empty());
      QCOMPARE(lowered.scales[core].size(), std::size_t{320});
    }
    std::vector<std::uint8_t> flash;
    const ConstantsPlacement placed = appendConstants(lowered, flash);
    QCOMPARE(placed.scalesEnd - placed.begin, std::uint64_t{640});
    QCOMPARE(lowered.operation.scales[1].base, std::uint64_t{320});
    QCOMPARE(lowered.operation.weights[0].base, std::uint64_t{640});
    QCOMPARE(flash.size(), placed.end);
  }
};

QTEST_GUILESS_MAIN(EthosuOperationEmitTest)
#include "operation_emit_test.moc"
