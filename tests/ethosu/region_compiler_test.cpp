// Whole NPU regions compiled to one Ethos-U operator (compiler_core/ethosu/
// region_compiler): for each shared int8 model, its longest run of
// operators the NPU takes becomes one command stream with its flash and a
// planned scratch, the rest stays on the CPU, and the model then gives
// TFLite Micro's bytes on every golden set (the reference interpreter runs
// the operator through the driver call and the functional model, as it runs
// a Vela file's). Every configuration is tried on the first
// set, the two Vela's files use on all of them.
#include <QtTest>

#include <random>
#include <set>

#include "ethosu/convolution_lowering.h"
#include "ethosu/payload_validator.h"
#include "ethosu/region_compiler.h"
#include "ethosu_test_model.h"
#include "frontend/ethosu_payload_reader.h"
#include "frontend/tflite_importer.h"
#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "test_data.h"

using namespace loupe;
using namespace loupe::ethosu;

namespace {

// The first and last operator of the longest run the NPU takes.
std::pair<int, int> longestNpuRun(const ir::Graph& graph) {
  std::pair<int, int> best{0, -1};
  int start = -1;
  for (int i = 0; i <= static_cast<int>(graph.operators.size()); ++i) {
    const bool takes = i < static_cast<int>(graph.operators.size()) &&
                       npuRegionTakes(graph, graph.operators[static_cast<std::size_t>(i)]);
    if (takes && start < 0) start = i;
    if (!takes && start >= 0) {
      if (i - 1 - start > best.second - best.first) best = {start, i - 1};
      start = -1;
    }
  }
  return best;
}

// Random bytes for each of the graph's inputs, in order.
std::vector<std::vector<std::uint8_t>> randomInputs(const ir::Graph& graph, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const int t : graph.inputs) {
    bytes.emplace_back(static_cast<std::size_t>(graph.tensor(t).elementCount()));
    for (auto& v : bytes.back()) v = static_cast<std::uint8_t>(random());
  }
  return bytes;
}

// The reference interpreter's first output of `graph` for `inputs`.
std::vector<std::uint8_t> referenceOutput(const ir::Graph& graph,
                                          const std::vector<std::vector<std::uint8_t>>& inputs) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  const auto output = interpreter.output(0);
  return std::vector<std::uint8_t>(output.begin(), output.end());
}

// The payload of `compiled`'s first operator through the driver's and
// Linux's checks; their text, "" when it passes.
std::string payloadProblems(const ir::Graph& compiled, const NpuArchitecture& arch) {
  const ir::Operator& npu = compiled.operators.front();
  PayloadMemory memory;
  memory.regionSizes = {
      npu.inputs[1] == ir::kNoTensor ? 0 : compiled.tensor(npu.inputs[1]).data.size(),
      std::uint64_t(std::get<ir::EthosUAttrs>(npu.attributes).scratchBytes), 0};
  const PayloadValidation validation =
      validatePayload(compiled.tensor(npu.inputs[0]).data, arch.config, memory);
  return validation.ok() ? std::string() : validation.text();
}

// The upscale modes of the kernel operations in `compiled`'s first
// operator's stream.
std::vector<int> upscaleModes(const ir::Graph& compiled) {
  const auto payload =
      frontend::readEthosUPayload(compiled.tensor(compiled.operators.front().inputs[0]).data);
  std::vector<int> modes;
  for (const auto& stream : payload.streams) {
    for (const auto& op : stream.operations) {
      if (op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
          op.kind == LOUPE_ETHOSU_OPERATION_POOL) {
        modes.push_back(op.ifm_upscale);
      }
    }
  }
  return modes;
}

// A RESIZE_NEAREST_NEIGHBOR or RESIZE_BILINEAR of `in` to outH x outW, then
// a TANH on its output (so that, compiled together, the resized map is an
// intermediate in bricks).
ir::Graph resizeGraph(ir::OpType type, const ir::Shape& in, int outH, int outW, bool alignCorners,
                      bool halfPixelCenters) {
  const ir::Quantization q = test::perTensor(0.05f, -3);
  test::GraphBuilder b;
  const int input = b.tensor("in", ir::DType::Int8, in, q);
  const int size = b.constant("size", ir::DType::Int32, {2}, std::vector<std::int32_t>{outH, outW});
  const ir::Shape outShape{in[0], outH, outW, in[3]};
  const int resized = b.tensor("resized", ir::DType::Int8, outShape, q);
  const int out = b.tensor("out", ir::DType::Int8, outShape, test::perTensor(1.0f / 128, 0));
  ir::OptionAttrs options;
  options.set("align_corners", alignCorners ? 1 : 0)
      .set("half_pixel_centers", halfPixelCenters ? 1 : 0);
  b.op(type, {input, size}, {resized}, options);
  b.op(ir::OpType::Tanh, {resized}, {out});
  return b.inputs({input}).outputs({out}).build();
}

// A TRANSPOSE_CONV of `in` (N, H, W, Cin) by a KxK filter of `channels`
// outputs, per-channel weights, with or without a bias.
ir::Graph transposeConvGraph(const ir::Shape& in, int channels, int kh, int kw, int strideH,
                             int strideW, ir::Padding padding, bool bias,
                             const ir::Shape& outShape) {
  std::mt19937 random(static_cast<unsigned>(in[1] * 131 + in[3] * 17 + kh * 5 + kw + strideW));
  test::GraphBuilder b;
  const int input = b.tensor("in", ir::DType::Int8, in, test::perTensor(0.05f, -3));
  const int shape = b.constant("output_shape", ir::DType::Int32, {4},
                               std::vector<std::int32_t>(outShape.begin(), outShape.end()));
  std::vector<std::int8_t> weights(static_cast<std::size_t>(channels * kh * kw * in[3]));
  for (auto& w : weights) w = static_cast<std::int8_t>(random() % 255 - 127);
  std::vector<float> scales;
  for (int c = 0; c < channels; ++c) scales.push_back(0.002f + 0.0005f * float(c % 5));
  const int filter = b.constant("filter", ir::DType::Int8, {channels, kh, kw, in[3]}, weights,
                                test::perChannel(scales, 0));
  std::vector<int> inputs = {shape, filter, input};
  if (bias) {
    std::vector<std::int32_t> values;
    for (int c = 0; c < channels; ++c) values.push_back(int(random() % 4001) - 2000);
    inputs.push_back(b.constant("bias", ir::DType::Int32, {channels}, values));
  }
  const int out = b.tensor("out", ir::DType::Int8, outShape, test::perTensor(0.04f, 5));
  ir::TransposeConvAttrs attrs;
  attrs.padding = padding;
  attrs.strideH = strideH;
  attrs.strideW = strideW;
  b.op(ir::OpType::TransposeConv, inputs, {out}, attrs);
  return b.inputs({input}).outputs({out}).build();
}
}  // namespace

class EthosuRegionCompilerTest : public QObject {
  Q_OBJECT

 private slots:
  void modelsWithTheirNpuRegionGiveTfliteMicrosBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("accelerator");
    QTest::addColumn<bool>("everySet");
    for (const char* model : {"kws_ref_model", "vww_96_int8", "ic_resnet8_int8", "ad01_int8",
                              "person_detect", "micro_speech_quantized"}) {
      for (const NpuArchitecture& arch : npuArchitectures()) {
        const bool velas =
            arch.accelerator == LOUPE_ETHOSU_U55_128 || arch.accelerator == LOUPE_ETHOSU_U55_256;
        QTest::newRow((std::string(model) + " " + std::string(arch.name)).c_str())
            << model << arch.accelerator << velas;
      }
    }
  }

  void modelsWithTheirNpuRegionGiveTfliteMicrosBytes() {
    QFETCH(QString, model);
    QFETCH(int, accelerator);
    QFETCH(bool, everySet);
    const auto dir = test::modelsDir() / model.toStdString();
    const ir::Graph graph = frontend::importTfliteFile((dir / "model.tflite").string());
    const auto [first, last] = longestNpuRun(graph);
    QVERIFY(last >= first);
    const ir::Graph compiled = withNpuRegion(graph, first, last, *findNpuArchitecture(accelerator));
    QCOMPARE(compiled.operators.size(), graph.operators.size() - std::size_t(last - first));
    const ir::Operator& npu = compiled.operators.at(std::size_t(first));
    QCOMPARE(npu.type, ir::OpType::EthosU);
    const auto& attrs = std::get<ir::EthosUAttrs>(npu.attributes);
    QCOMPARE(attrs.accelerator, accelerator);
    QVERIFY(attrs.npuOperations > 0 && attrs.macs > 0);
    // The payload is one a Vela file could have held: the importer's reader
    // takes it.
    const auto payload = frontend::readEthosUPayload(compiled.tensor(npu.inputs[0]).data);
    QCOMPARE(payload.accelerator, accelerator);

    auto sets = test::ethosu::goldenSets(model.toStdString());
    if (!everySet) sets.resize(1);
    for (const auto& set : sets) {
      reference::ReferenceInterpreter interpreter(compiled);
      for (std::size_t i = 0; i < compiled.inputs.size(); ++i) {
        interpreter.setInput(i, test::readBytes(set / ("input" + std::to_string(i) + ".bin")));
      }
      interpreter.invoke();
      for (std::size_t i = 0; i < compiled.outputs.size(); ++i) {
        const auto golden = test::readBytes(set / ("output" + std::to_string(i) + ".bin"));
        const auto output = interpreter.output(i);
        QVERIFY2(std::equal(golden.begin(), golden.end(), output.begin(), output.end()),
                 qPrintable(QString("%1: output %2 differs from TFLite Micro's (NPU region "
                                    "operators %3..%4)")
                                .arg(QString::fromStdString(set.filename().string()))
                                .arg(i)
                                .arg(first)
                                .arg(last)));
      }
    }
  }

  // Weight buffering: each buffered operator's constants are copied by one
  // DMA (from the flash, region 0, into the scratch, region 1), started
  // when at most the operation before is running, that the operation waits
  // for, its scales (and with them its weights) read from
  // the scratch, the scratch grown to hold them, and the bytes unchanged.
  void bufferedConstantsAreCopiedIntoTheScratchAndGiveTheSameBytes_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("weightsToo");
    for (const char* model : {"kws_ref_model", "ic_resnet8_int8", "ad01_int8", "vww_96_int8"}) {
      QTest::newRow((std::string(model) + " scales").c_str()) << model << false;
      QTest::newRow((std::string(model) + " weights").c_str()) << model << true;
    }
  }

  void bufferedConstantsAreCopiedIntoTheScratchAndGiveTheSameBytes() {
    QFETCH(QString, model);
    QFETCH(bool, weightsToo);
    const auto dir = test::modelsDir() / model.toStdString();
    const ir::Graph graph = frontend::importTfliteFile((dir / "model.tflite").string());
    const auto [first, last] = longestNpuRun(graph);
    ConstantBufferingPlan plan =
        NpuRegionCompiler(graph, first, last, *findNpuArchitecture("ethos-u55-128"))
            .bufferingCandidates();
    if (model == "ad01_int8") {
      // Fully connected layers only, which are no candidates: their scales
      // copied when asked.
      QVERIFY(plan.empty());
      for (int i = first + 1; i <= last; ++i) {
        if (graph.operators.at(std::size_t(i)).type == ir::OpType::FullyConnected) {
          plan[i] = ConstantBuffering::Scales;
        }
      }
    }
    QVERIFY(!plan.empty());
    QVERIFY(plan.count(first) == 0);  // nothing before it to hide a copy
    if (!weightsToo) {
      for (auto& [index, buffering] : plan) buffering = ConstantBuffering::Scales;
    }
    const NpuArchitecture& arch = *findNpuArchitecture("ethos-u55-128");
    const ir::Graph plain = withNpuRegion(graph, first, last, arch);
    const ir::Graph buffered = withNpuRegion(graph, first, last, arch, plan);
    const ir::Operator& npu = buffered.operators.at(std::size_t(first));
    const auto scratchOf = [first](const ir::Graph& g) {
      return std::get<ir::EthosUAttrs>(g.operators.at(std::size_t(first)).attributes).scratchBytes;
    };
    QVERIFY(scratchOf(buffered) > scratchOf(plain));
    QCOMPARE(buffered.tensor(npu.inputs[1]).data,
             plain.tensor(plain.operators.at(std::size_t(first)).inputs[1]).data);

    const auto payload = frontend::readEthosUPayload(buffered.tensor(npu.inputs[0]).data);
    int dmas = 0, weightsCopied = 0;
    for (const auto& stream : payload.streams) {
      for (std::size_t k = 0; k < stream.operations.size(); ++k) {
        const loupe_ethosu_operation& op = stream.operations[k];
        // Copies of constants (a table into the SHRAM is not one).
        if (op.kind == LOUPE_ETHOSU_OPERATION_DMA && !op.dma_dst_internal) {
          ++dmas;
          QCOMPARE(int(op.dma_src_region), 0);
          QCOMPARE(int(op.dma_dst_region), 1);
          QVERIFY(op.dma_dst + op.dma_length <= std::uint64_t(scratchOf(buffered)));
          // After an operation, which it runs beside, once the one before
          // that is done.
          QVERIFY(k >= 2);
          QCOMPARE(int(stream.operations[k - 1].kind), int(LOUPE_ETHOSU_OPERATION_KERNEL_WAIT));
          QCOMPARE(int(stream.operations[k - 1].sub_kind), 1);
          QVERIFY(k + 2 < stream.operations.size());
          QCOMPARE(int(stream.operations[k + 1].kind), int(LOUPE_ETHOSU_OPERATION_DMA_WAIT));
          const loupe_ethosu_operation& reader = stream.operations[k + 2];
          QCOMPARE(int(reader.scales[0].region), 1);
          QCOMPARE(reader.scales[0].base, op.dma_dst);
          if (reader.weights[0].region == 1) {
            ++weightsCopied;
            QCOMPARE(reader.weights[0].base,
                     op.dma_dst + (op.dma_length - reader.weights[0].length));
          }
        }
      }
    }
    QCOMPARE(dmas, int(plan.size()));
    QCOMPARE(weightsCopied, int(std::count_if(plan.begin(), plan.end(), [](const auto& entry) {
               return entry.second == ConstantBuffering::ScalesAndWeights;
             })));

    for (const auto& set : test::ethosu::goldenSets(model.toStdString())) {
      reference::ReferenceInterpreter interpreter(buffered);
      for (std::size_t i = 0; i < buffered.inputs.size(); ++i) {
        interpreter.setInput(i, test::readBytes(set / ("input" + std::to_string(i) + ".bin")));
      }
      interpreter.invoke();
      for (std::size_t i = 0; i < buffered.outputs.size(); ++i) {
        const auto golden = test::readBytes(set / ("output" + std::to_string(i) + ".bin"));
        const auto output = interpreter.output(i);
        QVERIFY2(std::equal(golden.begin(), golden.end(), output.begin(), output.end()),
                 set.filename().string().c_str());
      }
    }
  }

  // Between NPU operations feature maps are in NHCWB16; what the CPU sees
  // (the region's input and output) and what a view shares stay NHWC.
  void intermediatesAreInBricksAndTheBoundaryInNhwc() {
    const ir::Graph graph =
        frontend::importTfliteFile((test::modelsDir() / "kws_ref_model" / "model.tflite").string());
    const int last = static_cast<int>(graph.operators.size()) - 2;  // before SOFTMAX
    const ir::Graph compiled = withNpuRegion(graph, 0, last, *findNpuArchitecture("ethos-u55-128"));
    const auto payload =
        frontend::readEthosUPayload(compiled.tensor(compiled.operators[0].inputs[0]).data);
    std::vector<const loupe_ethosu_operation*> kernels;
    for (const auto& stream : payload.streams) {
      for (const auto& op : stream.operations) {
        if (op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
            op.kind == LOUPE_ETHOSU_OPERATION_POOL) {
          kernels.push_back(&op);
        }
      }
    }
    QVERIFY(kernels.size() >= 3);
    QCOMPARE(int(kernels.front()->ifm.layout), int(LOUPE_ETHOSU_activation_format_NHWC));
    QCOMPARE(int(kernels.back()->ofm.layout), int(LOUPE_ETHOSU_activation_format_NHWC));
    // Operation k's output is operation k+1's input, in the same layout:
    // bricks from the first convolution to the average pool.
    int bricked = 0;
    for (std::size_t k = 0; k + 1 < kernels.size(); ++k) {
      if (kernels[k]->ofm.base[0] != kernels[k + 1]->ifm.base[0]) continue;
      QCOMPARE(int(kernels[k]->ofm.layout), int(kernels[k + 1]->ifm.layout));
      bricked += kernels[k]->ofm.layout == LOUPE_ETHOSU_activation_format_NHCWB16;
      if (kernels[k]->ofm.layout == LOUPE_ETHOSU_activation_format_NHCWB16) {
        QCOMPARE(kernels[k]->ofm.stride_x, std::uint64_t{16});
        QCOMPARE(kernels[k]->ofm.stride_c, 16 * std::uint64_t{kernels[k]->ofm.width});
      }
    }
    QVERIFY(bricked >= 9);
  }

  void constantsOfTheFirstOperationCannotBeBuffered() {
    const ir::Graph graph =
        frontend::importTfliteFile((test::modelsDir() / "kws_ref_model" / "model.tflite").string());
    try {
      withNpuRegion(graph, 0, 3, *findNpuArchitecture("ethos-u55-128"),
                    {{0, ConstantBuffering::Scales}});
      QFAIL("the first operation's constants were buffered");
    } catch (const NpuLoweringError& error) {
      QVERIFY2(QString(error.what()).contains("cannot be buffered"), error.what());
    }
  }

  // Lookup-table operators: each alone, and two in a row (the second's
  // table replacing the first's in the SHRAM), on every input value, give
  // the reference interpreter's bytes on every configuration.
  void lookupTableOperatorsGiveTheReferencesBytes_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<double>("outScale");
    QTest::addColumn<int>("outZeroPoint");
    const std::pair<ir::OpType, std::pair<double, int>> cases[] = {
        {ir::OpType::Logistic, {1.0 / 256, -128}},
        {ir::OpType::Tanh, {1.0 / 128, 0}},
        {ir::OpType::HardSwish, {0.03, -20}},
        {ir::OpType::LeakyRelu, {0.04, 10}},
        {ir::OpType::Elu, {0.05, 30}},
        {ir::OpType::Relu, {0.05, -128}},
        {ir::OpType::Relu6, {6.0 / 255, -128}},
        {ir::OpType::Abs, {0.05, -128}},
        {ir::OpType::Quantize, {0.02, -7}}};
    for (const auto& [type, quantization] : cases) {
      QTest::newRow(ir::opTypeName(type).data())
          << int(type) << quantization.first << quantization.second;
    }
  }

  void lookupTableOperatorsGiveTheReferencesBytes() {
    QFETCH(int, type);
    QFETCH(double, outScale);
    QFETCH(int, outZeroPoint);
    const ir::Shape shape{1, 4, 8, 24};  // 768 values: every int8 three times
    test::GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, shape, test::perTensor(0.05f, 5));
    const int mid =
        b.tensor("mid", ir::DType::Int8, shape, test::perTensor(float(outScale), outZeroPoint));
    const int out = b.tensor("out", ir::DType::Int8, shape, test::perTensor(1.0f / 128, 0));
    ir::Attributes attributes;
    if (type == int(ir::OpType::LeakyRelu)) attributes = ir::LeakyReluAttrs{0.15f};
    b.op(static_cast<ir::OpType>(type), {in}, {mid}, attributes);
    b.op(ir::OpType::Tanh, {mid}, {out});
    const ir::Graph graph = b.inputs({in}).outputs({out}).build();
    std::vector<std::uint8_t> input(static_cast<std::size_t>(ir::elementCount(shape)));
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i * 7);
    const auto run = [&input](const ir::Graph& g, int tensor) {
      reference::ReferenceInterpreter interpreter(g);
      interpreter.setInput(0, input);
      interpreter.invoke();
      const auto bytes = interpreter.tensorBytes(tensor);
      return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
    };
    for (const NpuArchitecture& arch : npuArchitectures()) {
      // Alone, then both: the intermediate and the output.
      const ir::Graph first = withNpuRegion(graph, 0, 0, arch);
      QCOMPARE(first.operators.front().type, ir::OpType::EthosU);
      QCOMPARE(run(first, mid), run(graph, mid));
      const ir::Graph both = withNpuRegion(graph, 0, 1, arch);
      QCOMPARE(both.operators.size(), std::size_t{1});
      QCOMPARE(run(both, out), run(graph, out));
      const auto payload =
          frontend::readEthosUPayload(both.tensor(both.operators[0].inputs[0]).data);
      int tables = 0;
      for (const auto& stream : payload.streams) {
        for (const auto& op : stream.operations) {
          if (op.kind == LOUPE_ETHOSU_OPERATION_DMA) {
            QVERIFY(op.dma_dst_internal);
            QCOMPARE(op.dma_length, std::uint64_t{256});
            ++tables;
          }
        }
      }
      QCOMPARE(tables, 2);
      // And the payload passes the driver's and Linux's checks.
      const ir::Operator& npu = both.operators[0];
      PayloadMemory memory;
      memory.regionSizes = {both.tensor(npu.inputs[1]).data.size(),
                            std::uint64_t(std::get<ir::EthosUAttrs>(npu.attributes).scratchBytes),
                            0};
      const PayloadValidation validation =
          validatePayload(both.tensor(npu.inputs[0]).data, arch.config, memory);
      QVERIFY2(validation.ok(), validation.text().c_str());
    }
  }

  // CONCATENATION along channels, columns and rows (and of a 2-D tensor),
  // each input copied into its slice of the output, one after a TANH on
  // the NPU, gives the reference's bytes on every configuration.
  void concatenationsGiveTheReferencesBytes_data() {
    QTest::addColumn<QList<int>>("shape0");
    QTest::addColumn<QList<int>>("shape1");
    QTest::addColumn<int>("axis");
    QTest::newRow("channels") << QList<int>{1, 4, 5, 8} << QList<int>{1, 4, 5, 24} << 3;
    QTest::newRow("columns") << QList<int>{1, 4, 2, 16} << QList<int>{1, 4, 5, 16} << 2;
    QTest::newRow("rows, negative axis") << QList<int>{1, 3, 5, 8} << QList<int>{1, 1, 5, 8} << -3;
    QTest::newRow("2-D") << QList<int>{1, 8} << QList<int>{1, 40} << 1;
  }

  void concatenationsGiveTheReferencesBytes() {
    QFETCH(QList<int>, shape0);
    QFETCH(QList<int>, shape1);
    QFETCH(int, axis);
    const ir::Shape s0(shape0.begin(), shape0.end()), s1(shape1.begin(), shape1.end());
    ir::Shape joined = s0;
    const auto a = static_cast<std::size_t>(axis < 0 ? axis + int(s0.size()) : axis);
    joined[a] += s1[a];
    const ir::Quantization q = test::perTensor(0.05f, -3);
    test::GraphBuilder b;
    const int in0 = b.tensor("a", ir::DType::Int8, s0, q);
    const int in1 = b.tensor("b", ir::DType::Int8, s1, q);
    const int tanh = b.tensor("tanh", ir::DType::Int8, s1, q);
    const int third = b.tensor("c", ir::DType::Int8, s0, q);
    ir::Shape all = joined;
    all[a] += s0[a];
    const int out = b.tensor("out", ir::DType::Int8, all, q);
    b.op(ir::OpType::Tanh, {in1}, {tanh});
    b.op(ir::OpType::Concatenation, {in0, tanh, third}, {out}, ir::ConcatenationAttrs{axis});
    const ir::Graph graph = b.inputs({in0, in1, third}).outputs({out}).build();
    const auto bytes = randomInputs(graph, static_cast<unsigned>(a * 31 + s1[a]));
    const auto run = [&bytes](const ir::Graph& g) { return referenceOutput(g, bytes); };
    const auto expected = run(graph);
    for (const NpuArchitecture& arch : npuArchitectures()) {
      const ir::Graph compiled = withNpuRegion(graph, 0, 1, arch);
      QCOMPARE(compiled.operators.size(), std::size_t{1});
      QVERIFY2(run(compiled) == expected, arch.name.data());
      const auto& attrs = std::get<ir::EthosUAttrs>(compiled.operators[0].attributes);
      // The TANH's table (a wait for the kernels, its DMA, the wait for
      // that), the TANH, three copies.
      QCOMPARE(attrs.npuOperations, 7u);
    }
  }

  void minimumAndMaximumGiveTheReferencesBytes_data() {
    QTest::addColumn<QList<int>>("shape0");
    QTest::addColumn<QList<int>>("shape1");
    QTest::newRow("same shape") << QList<int>{1, 4, 5, 16} << QList<int>{1, 4, 5, 16};
    QTest::newRow("second broadcasts") << QList<int>{1, 4, 5, 8} << QList<int>{1, 1, 1, 8};
    QTest::newRow("first broadcasts") << QList<int>{1, 4, 1, 8} << QList<int>{1, 4, 5, 8};
  }

  // MAXIMUM of two inputs, then MINIMUM of that and a third: as TFLite
  // compares the bytes, on every configuration.
  void minimumAndMaximumGiveTheReferencesBytes() {
    QFETCH(QList<int>, shape0);
    QFETCH(QList<int>, shape1);
    const ir::Shape s0(shape0.begin(), shape0.end()), s1(shape1.begin(), shape1.end());
    ir::Shape joined(4);
    for (std::size_t i = 0; i < 4; ++i) joined[i] = std::max(s0[i], s1[i]);
    const ir::Quantization q = test::perTensor(0.05f, -3);
    test::GraphBuilder b;
    const int in0 = b.tensor("a", ir::DType::Int8, s0, q);
    const int in1 = b.tensor("b", ir::DType::Int8, s1, q);
    const int in2 = b.tensor("c", ir::DType::Int8, joined, q);
    const int larger = b.tensor("max", ir::DType::Int8, joined, q);
    const int out = b.tensor("out", ir::DType::Int8, joined, q);
    b.op(ir::OpType::Maximum, {in0, in1}, {larger});
    b.op(ir::OpType::Minimum, {larger, in2}, {out});
    const ir::Graph graph = b.inputs({in0, in1, in2}).outputs({out}).build();
    const auto bytes = randomInputs(graph, static_cast<unsigned>(s0[2] * 7 + s1[1]));
    const auto run = [&bytes](const ir::Graph& g) { return referenceOutput(g, bytes); };
    const auto expected = run(graph);
    QVERIFY(expected != bytes[2]);  // the third input alone does not pass
    for (const NpuArchitecture& arch : npuArchitectures()) {
      const ir::Graph compiled = withNpuRegion(graph, 0, 1, arch);
      QCOMPARE(compiled.operators.size(), std::size_t{1});
      QVERIFY2(run(compiled) == expected, arch.name.data());
      const ir::Operator& npu = compiled.operators[0];
      const auto& attrs = std::get<ir::EthosUAttrs>(npu.attributes);
      QCOMPARE(attrs.npuOperations, 2u);
      PayloadMemory memory;
      QCOMPARE(npu.inputs[1], ir::kNoTensor);  // no constants: no flash
      memory.regionSizes = {0, std::uint64_t(attrs.scratchBytes), 0};
      const PayloadValidation validation =
          validatePayload(compiled.tensor(npu.inputs[0]).data, arch.config, memory);
      QVERIFY2(validation.ok(), validation.text().c_str());
    }
  }

  void aMaximumOfInputsQuantisedOtherwiseIsRefused() {
    test::GraphBuilder b;
    const int in0 = b.tensor("a", ir::DType::Int8, {1, 2, 2, 4}, test::perTensor(0.05f, 0));
    const int in1 = b.tensor("b", ir::DType::Int8, {1, 2, 2, 4}, test::perTensor(0.05f, 3));
    const int out = b.tensor("out", ir::DType::Int8, {1, 2, 2, 4}, test::perTensor(0.05f, 0));
    b.op(ir::OpType::Maximum, {in0, in1}, {out});
    const ir::Graph graph = b.inputs({in0, in1}).outputs({out}).build();
    const auto reasons =
        npuRefusals(graph, graph.operators.front(), *findNpuArchitecture("ethos-u55-128"));
    QCOMPARE(reasons.size(), std::size_t{1});
    QVERIFY2(QString::fromStdString(reasons.front()).contains("compares the raw bytes"),
             reasons.front().c_str());
  }

  void aConcatenationOfInputsQuantisedOtherwiseIsRefused() {
    test::GraphBuilder b;
    const int in0 = b.tensor("a", ir::DType::Int8, {1, 2, 2, 4}, test::perTensor(0.05f, 0));
    const int in1 = b.tensor("b", ir::DType::Int8, {1, 2, 2, 4}, test::perTensor(0.07f, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 2, 2, 8}, test::perTensor(0.05f, 0));
    b.op(ir::OpType::Concatenation, {in0, in1}, {out}, ir::ConcatenationAttrs{3});
    const ir::Graph graph = b.inputs({in0, in1}).outputs({out}).build();
    const auto reasons =
        npuRefusals(graph, graph.operators.front(), *findNpuArchitecture("ethos-u55-128"));
    QCOMPARE(reasons.size(), std::size_t{1});
    QVERIFY2(QString::fromStdString(reasons.front()).contains("not quantised like the output"),
             reasons.front().c_str());
  }

  // An int16 TANH, and an int8 NEG (TFLite Micro's NEG takes floats only,
  // so there is no table to follow), are refused with the reason.
  void lookupTableOperatorsTheTableCannotStandForAreRefused() {
    const auto refusal = [](ir::OpType type, ir::DType dtype) {
      test::GraphBuilder b;
      const int in = b.tensor("in", dtype, {1, 2, 2, 4}, test::perTensor(0.01f, 0));
      const int out = b.tensor("out", dtype, {1, 2, 2, 4}, test::perTensor(0.01f, 0));
      b.op(type, {in}, {out});
      const ir::Graph graph = b.inputs({in}).outputs({out}).build();
      const auto reasons =
          npuRefusals(graph, graph.operators.front(), *findNpuArchitecture("ethos-u55-128"));
      return reasons.empty() ? QString() : QString::fromStdString(reasons.front());
    };
    const QString int16 = refusal(ir::OpType::Tanh, ir::DType::Int16);
    QVERIFY2(int16.contains("is not an int8 tensor"), qPrintable(int16));
    const QString neg = refusal(ir::OpType::Neg, ir::DType::Int8);
    QVERIFY2(neg.startsWith("no lookup table: ") && neg.contains("float32"), qPrintable(neg));
  }

  // RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR to twice the size (with and
  // without align_corners, nearest with half_pixel_centers) and to the same
  // size: one NPU operation over the input upscaled x2 (NEAREST), alone and
  // before a TANH (the resized map then in bricks), give the reference's
  // bytes on every configuration, and the payloads pass the driver's
  // checks.
  void resizesGiveTheReferencesBytes_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<QList<int>>("in");
    QTest::addColumn<int>("outH");
    QTest::addColumn<int>("outW");
    QTest::addColumn<bool>("alignCorners");
    QTest::addColumn<bool>("halfPixelCenters");
    QTest::addColumn<bool>("upscaled");
    const int nearest = int(ir::OpType::ResizeNearestNeighbor);
    const int bilinear = int(ir::OpType::ResizeBilinear);
    QTest::newRow("nearest x2") << nearest << QList<int>{1, 3, 4, 8} << 6 << 8 << false << false
                                << true;
    QTest::newRow("nearest x2 half-pixel")
        << nearest << QList<int>{1, 5, 3, 16} << 10 << 6 << false << true << true;
    QTest::newRow("nearest x2 one row")
        << nearest << QList<int>{1, 1, 3, 5} << 2 << 6 << false << false << true;
    QTest::newRow("nearest align corners")
        << nearest << QList<int>{1, 3, 4, 8} << 5 << 7 << true << false << true;
    QTest::newRow("nearest align corners deep")
        << nearest << QList<int>{1, 4, 4, 40} << 7 << 7 << true << false << true;
    QTest::newRow("nearest same size")
        << nearest << QList<int>{1, 3, 3, 4} << 3 << 3 << false << true << false;
    QTest::newRow("bilinear x2") << bilinear << QList<int>{1, 3, 4, 8} << 6 << 8 << false << false
                                 << true;
    QTest::newRow("bilinear x2 3-D")
        << bilinear << QList<int>{1, 2, 5, 16} << 4 << 10 << false << false << true;
    QTest::newRow("bilinear x2 one column")
        << bilinear << QList<int>{1, 4, 1, 3} << 8 << 2 << false << false << true;
    QTest::newRow("bilinear align corners")
        << bilinear << QList<int>{1, 3, 4, 8} << 5 << 7 << true << false << true;
    QTest::newRow("bilinear align corners tall")
        << bilinear << QList<int>{1, 6, 2, 24} << 11 << 3 << true << false << true;
    QTest::newRow("bilinear same size half-pixel")
        << bilinear << QList<int>{1, 4, 4, 8} << 4 << 4 << false << true << false;
    // By 4 and 8: x2 upscalings into maps of the operator's own, then the last.
    QTest::newRow("nearest x4") << nearest << QList<int>{1, 3, 3, 8} << 12 << 12 << false << false
                                << true;
    QTest::newRow("nearest x8 half-pixel")
        << nearest << QList<int>{1, 2, 3, 5} << 16 << 24 << false << true << true;
    QTest::newRow("bilinear x4") << bilinear << QList<int>{1, 3, 4, 8} << 12 << 16 << false << false
                                 << true;
    QTest::newRow("bilinear x4 align corners")
        << bilinear << QList<int>{1, 3, 2, 16} << 9 << 5 << true << false << true;
    QTest::newRow("bilinear x8") << bilinear << QList<int>{1, 2, 2, 3} << 16 << 16 << false << false
                                 << true;
    QTest::newRow("bilinear x8 align corners")
        << bilinear << QList<int>{1, 2, 3, 8} << 9 << 17 << true << false << true;
  }

  void resizesGiveTheReferencesBytes() {
    QFETCH(int, type);
    QFETCH(QList<int>, in);
    QFETCH(int, outH);
    QFETCH(int, outW);
    QFETCH(bool, alignCorners);
    QFETCH(bool, halfPixelCenters);
    QFETCH(bool, upscaled);
    const ir::Graph graph =
        resizeGraph(static_cast<ir::OpType>(type), ir::Shape(in.begin(), in.end()), outH, outW,
                    alignCorners, halfPixelCenters);
    const int resized = graph.operators[0].outputs[0];
    const auto bytes = randomInputs(graph, static_cast<unsigned>(outH * 13 + outW + type));
    const auto run = [&bytes](const ir::Graph& g, int tensor) {
      reference::ReferenceInterpreter interpreter(g);
      interpreter.setInput(0, bytes[0]);
      interpreter.invoke();
      const auto out = interpreter.tensorBytes(tensor);
      return std::vector<std::uint8_t>(out.begin(), out.end());
    };
    const auto expected = run(graph, resized);
    const auto expectedOut = run(graph, graph.outputs[0]);
    for (const NpuArchitecture& arch : npuArchitectures()) {
      QVERIFY2(npuRefusals(graph, graph.operators[0], arch).empty(), arch.name.data());
      const ir::Graph alone = withNpuRegion(graph, 0, 0, arch);
      QCOMPARE(alone.operators.front().type, ir::OpType::EthosU);
      QVERIFY2(run(alone, resized) == expected, arch.name.data());
      // One operation per x2 upscaling (by 4: two, by 8: three), or a copy.
      const int factor = alignCorners ? (outH - 1) / (in[1] - 1) : outH / in[1];
      const std::size_t operations = factor == 8 ? 3 : factor == 4 ? 2 : 1;
      const std::vector<int> modes = upscaleModes(alone);
      QCOMPARE(modes.size(), operations);
      for (const int mode : modes) {
        QCOMPARE(mode, upscaled ? int(LOUPE_ETHOSU_upscale_mode_NEAREST)
                                : int(LOUPE_ETHOSU_upscale_mode_NONE));
      }
      const std::string problems = payloadProblems(alone, arch);
      QVERIFY2(problems.empty(), problems.c_str());
      const ir::Graph both = withNpuRegion(graph, 0, 1, arch);
      QCOMPARE(both.operators.size(), std::size_t{1});
      QVERIFY2(run(both, graph.outputs[0]) == expectedOut, arch.name.data());
      const std::string bothProblems = payloadProblems(both, arch);
      QVERIFY2(bothProblems.empty(), bothProblems.c_str());
    }
  }

  // What the NPU does not resize here is refused with the reason the
  // Devices view shows.
  void resizesTheNpuDoesNotRunAreRefused_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<QList<int>>("in");
    QTest::addColumn<int>("outH");
    QTest::addColumn<int>("outW");
    QTest::addColumn<bool>("alignCorners");
    QTest::addColumn<bool>("halfPixelCenters");
    QTest::addColumn<QString>("reason");
    const int nearest = int(ir::OpType::ResizeNearestNeighbor);
    const int bilinear = int(ir::OpType::ResizeBilinear);
    QTest::newRow("bilinear half-pixel")
        << bilinear << QList<int>{1, 3, 3, 8} << 6 << 6 << false << true << "half_pixel_centers";
    QTest::newRow("nearest x4 align corners") << nearest << QList<int>{1, 3, 3, 8} << 9 << 9 << true
                                              << false << "resizes by 4 with align_corners";
    QTest::newRow("nearest x3") << nearest << QList<int>{1, 3, 3, 8} << 9 << 9 << false << false
                                << "resizes 3x3 to 9x9";
    QTest::newRow("nearest x2 one axis")
        << nearest << QList<int>{1, 3, 3, 8} << 6 << 3 << false << false << "resizes 3x3 to 6x3";
    QTest::newRow("bilinear from one pixel")
        << bilinear << QList<int>{1, 1, 1, 8} << 4 << 4 << false << false << "resizes 1x1 to 4x4";
  }

  void resizesTheNpuDoesNotRunAreRefused() {
    QFETCH(int, type);
    QFETCH(QList<int>, in);
    QFETCH(int, outH);
    QFETCH(int, outW);
    QFETCH(bool, alignCorners);
    QFETCH(bool, halfPixelCenters);
    QFETCH(QString, reason);
    const ir::Graph graph =
        resizeGraph(static_cast<ir::OpType>(type), ir::Shape(in.begin(), in.end()), outH, outW,
                    alignCorners, halfPixelCenters);
    const auto reasons =
        npuRefusals(graph, graph.operators.front(), *findNpuArchitecture("ethos-u55-128"));
    QCOMPARE(reasons.size(), std::size_t{1});
    QVERIFY2(QString::fromStdString(reasons.front()).contains(reason), reasons.front().c_str());
  }

  // TRANSPOSE_CONV of stride 2 (the IFM upscaled with zeros, the filter
  // reversed) and 1, SAME and VALID, kernels of 1 to 5, with and without a
  // bias, gives the reference's bytes on every configuration; the payload
  // passes the driver's checks.
  void transposeConvolutionsGiveTheReferencesBytes_data() {
    QTest::addColumn<QList<int>>("in");
    QTest::addColumn<int>("channels");
    QTest::addColumn<int>("kh");
    QTest::addColumn<int>("kw");
    QTest::addColumn<int>("stride");
    QTest::addColumn<bool>("same");
    QTest::addColumn<bool>("bias");
    QTest::newRow("3x3 stride 2 SAME")
        << QList<int>{1, 3, 4, 8} << 8 << 3 << 3 << 2 << true << true;
    QTest::newRow("3x3 stride 2 VALID")
        << QList<int>{1, 3, 3, 3} << 5 << 3 << 3 << 2 << false << false;
    QTest::newRow("2x2 stride 2 SAME")
        << QList<int>{1, 4, 2, 16} << 16 << 2 << 2 << 2 << true << true;
    QTest::newRow("4x4 stride 2 SAME")
        << QList<int>{1, 2, 3, 4} << 6 << 4 << 4 << 2 << true << false;
    QTest::newRow("5x3 stride 2 VALID")
        << QList<int>{1, 2, 2, 8} << 4 << 5 << 3 << 2 << false << true;
    QTest::newRow("1x1 stride 2 SAME")
        << QList<int>{1, 3, 3, 8} << 8 << 1 << 1 << 2 << true << true;
    QTest::newRow("3x3 stride 2 one channel")
        << QList<int>{1, 4, 4, 1} << 2 << 3 << 3 << 2 << false << true;
    QTest::newRow("3x3 stride 2 deep")
        << QList<int>{1, 2, 2, 40} << 24 << 3 << 3 << 2 << true << true;
    QTest::newRow("1x3 stride 1x2 one row")
        << QList<int>{1, 1, 5, 8} << 8 << 1 << 3 << -2 << true << true;
    QTest::newRow("1x4 stride 1x2 one row VALID")
        << QList<int>{1, 1, 4, 16} << 8 << 1 << 4 << -2 << false << true;
    QTest::newRow("3x3 stride 1 SAME")
        << QList<int>{1, 3, 3, 8} << 8 << 3 << 3 << 1 << true << true;
    QTest::newRow("2x2 stride 1 VALID")
        << QList<int>{1, 3, 4, 8} << 8 << 2 << 2 << 1 << false << false;
  }

  void transposeConvolutionsGiveTheReferencesBytes() {
    QFETCH(QList<int>, in);
    QFETCH(int, channels);
    QFETCH(int, kh);
    QFETCH(int, kw);
    QFETCH(int, stride);
    QFETCH(bool, same);
    QFETCH(bool, bias);
    const ir::Shape inShape(in.begin(), in.end());
    // A negative stride: 1 along the rows, its magnitude along the columns.
    const int strideH = stride < 0 ? 1 : stride, strideW = std::abs(stride);
    const auto extent = [&](int input, int kernel, int s) {
      return same ? input * s : input * s + std::max(kernel - s, 0);
    };
    const ir::Shape outShape{1, extent(inShape[1], kh, strideH), extent(inShape[2], kw, strideW),
                             channels};
    const ir::Graph graph =
        transposeConvGraph(inShape, channels, kh, kw, strideH, strideW,
                           same ? ir::Padding::Same : ir::Padding::Valid, bias, outShape);
    const auto bytes = randomInputs(graph, static_cast<unsigned>(kh * 7 + channels));
    const auto expected = referenceOutput(graph, bytes);
    std::set<std::uint8_t> values(expected.begin(), expected.end());
    QVERIFY2(values.size() > 8, "the output is mostly clamped: a weak test");
    for (const NpuArchitecture& arch : npuArchitectures()) {
      QVERIFY2(npuRefusals(graph, graph.operators[0], arch).empty(), arch.name.data());
      const ir::Graph compiled = withNpuRegion(graph, 0, 0, arch);
      QCOMPARE(compiled.operators.front().type, ir::OpType::EthosU);
      QVERIFY2(referenceOutput(compiled, bytes) == expected, arch.name.data());
      const std::vector<int> modes = upscaleModes(compiled);
      QCOMPARE(modes.size(), std::size_t{1});
      QCOMPARE(modes[0], strideW == 2 ? int(LOUPE_ETHOSU_upscale_mode_ZEROS)
                                      : int(LOUPE_ETHOSU_upscale_mode_NONE));
      const std::string problems = payloadProblems(compiled, arch);
      QVERIFY2(problems.empty(), problems.c_str());
    }
  }

  // Strides Vela does not take, output sizes other than SAME's and VALID's,
  // and an int16 transpose convolution are refused with their reasons.
  void transposeConvolutionsTheNpuDoesNotRunAreRefused() {
    const auto refusal = [](int strideH, int strideW, const ir::Shape& outShape,
                            ir::DType dtype = ir::DType::Int8) {
      ir::Graph graph = transposeConvGraph({1, 3, 3, 8}, 8, 3, 3, strideH, strideW,
                                           ir::Padding::Same, true, outShape);
      if (dtype != ir::DType::Int8) {
        graph.tensor(graph.inputs[0]).dtype = dtype;
        graph.tensor(graph.outputs[0]).dtype = dtype;
      }
      const auto reasons =
          npuRefusals(graph, graph.operators.front(), *findNpuArchitecture("ethos-u55-128"));
      return reasons.empty() ? QString() : QString::fromStdString(reasons.front());
    };
    const QString stride3 = refusal(3, 3, {1, 9, 9, 8});
    QVERIFY2(stride3.contains("stride 1x1 or 2x2") && stride3.contains("not 3x3"),
             qPrintable(stride3));
    const QString rowsOfThree = refusal(1, 2, {1, 3, 6, 8});
    QVERIFY2(rowsOfThree.contains("not 1x2"), qPrintable(rowsOfThree));
    const QString smaller = refusal(2, 2, {1, 5, 5, 8});
    QVERIFY2(smaller.contains("is not the SAME size"), qPrintable(smaller));
    const QString int16 = refusal(2, 2, {1, 6, 6, 8}, ir::DType::Int16);
    QVERIFY2(int16.contains("is not an int8 tensor"), qPrintable(int16));
  }

  void anOperatorTheNpuDoesNotTakeIsNamed() {
    test::GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 4, 4, 8}, test::perTensor(0.05f, 0));
    const int mid = b.tensor("mid", ir::DType::Int8, {1, 4, 4, 8}, test::perTensor(0.05f, 0));
    const int out = b.tensor("out", ir::DType::Int32, {1, 4, 4});
    b.op(ir::OpType::Relu, {in}, {mid});
    b.op(ir::OpType::ArgMax, {mid}, {out});
    const ir::Graph graph = b.inputs({in}).outputs({out}).build();
    try {
      withNpuRegion(graph, 0, 1, *findNpuArchitecture("ethos-u55-128"));
      QFAIL("a region with ARG_MAX was compiled");
    } catch (const NpuLoweringError& error) {
      QVERIFY2(QString(error.what()).contains("ARG_MAX"), error.what());
    }
  }

  // SOFTMAX (int8, as Vela runs it: 31 operations through a table of 32-bit
  // exponentials) gives the reference's bytes for rows of one element to a
  // thousand, several rows, input quantisations and betas, on random
  // inputs and on rows whose elements are all equal or at the extremes,
  // after another NPU operation, on every configuration; and each payload
  // passes the driver's and Linux's checks.
  void softmaxGivesTheReferencesBytes_data() {
    QTest::addColumn<QList<int>>("shape");
    QTest::addColumn<double>("inScale");
    QTest::addColumn<int>("inZeroPoint");
    QTest::addColumn<double>("beta");
    QTest::newRow("kws-like 1x12") << QList<int>{1, 12} << 0.1447 << 14 << 1.0;
    QTest::newRow("one element") << QList<int>{1, 1} << 0.05 << 0 << 1.0;
    QTest::newRow("1000 classes") << QList<int>{1, 1000} << 0.08 << -20 << 1.0;
    QTest::newRow("rows 3x7") << QList<int>{3, 7} << 0.02 << 100 << 1.0;
    QTest::newRow("4-D 1x4x4x10") << QList<int>{1, 4, 4, 10} << 0.3 << -128 << 1.0;
    QTest::newRow("beta 0.5 sharp scale") << QList<int>{1, 2, 33} << 0.5 << 5 << 0.5;
    QTest::newRow("beta 2 fine scale") << QList<int>{2, 1, 3, 17} << 0.004 << 0 << 2.0;
  }

  void softmaxGivesTheReferencesBytes() {
    QFETCH(QList<int>, shape);
    QFETCH(double, inScale);
    QFETCH(int, inZeroPoint);
    QFETCH(double, beta);
    const ir::Shape dims(shape.begin(), shape.end());
    // The other NPU operators take no batch: a batch of rows stands alone.
    const bool alone = dims.front() != 1;
    test::GraphBuilder b;
    const int in =
        b.tensor("in", ir::DType::Int8, dims,
                 alone ? test::perTensor(float(inScale), inZeroPoint) : test::perTensor(0.05f, 3));
    const int logits = alone ? in
                             : b.tensor("logits", ir::DType::Int8, dims,
                                        test::perTensor(float(inScale), inZeroPoint));
    const int out = b.tensor("out", ir::DType::Int8, dims, test::perTensor(1.0f / 256, -128));
    if (!alone) b.op(ir::OpType::Relu, {in}, {logits});
    b.op(ir::OpType::Softmax, {logits}, {out}, ir::SoftmaxAttrs{float(beta)});
    const ir::Graph graph = b.inputs({in}).outputs({out}).build();
    const std::size_t elements = static_cast<std::size_t>(ir::elementCount(dims));
    std::vector<std::vector<std::uint8_t>> inputs;
    std::mt19937 random(7);
    for (int i = 0; i < 4; ++i) {
      inputs.emplace_back(elements);
      for (auto& v : inputs.back()) v = static_cast<std::uint8_t>(random());
    }
    inputs.emplace_back(elements, std::uint8_t{0x80});  // all -128: equal rows below RELU's 0
    inputs.emplace_back(elements, std::uint8_t{0x7f});  // all 127
    inputs.emplace_back(elements);                      // alternating extremes
    for (std::size_t i = 0; i < elements; ++i) inputs.back()[i] = i % 2 ? 0x7f : 0x80;
    for (const NpuArchitecture& arch : npuArchitectures()) {
      const int last = static_cast<int>(graph.operators.size()) - 1;
      const ir::Graph npu = withNpuRegion(graph, 0, last, arch);
      QCOMPARE(npu.operators.size(), std::size_t{1});
      for (const auto& input : inputs) {
        QCOMPARE(referenceOutput(npu, {input}), referenceOutput(graph, {input}));
      }
      const ir::Operator& op = npu.operators[0];
      PayloadMemory memory;
      memory.regionSizes = {npu.tensor(op.inputs[1]).data.size(),
                            std::uint64_t(std::get<ir::EthosUAttrs>(op.attributes).scratchBytes),
                            0};
      const PayloadValidation validation =
          validatePayload(npu.tensor(op.inputs[0]).data, arch.config, memory);
      QVERIFY2(validation.ok(), validation.text().c_str());
      // The RELU (if any) and the softmax's 31 operations, each with its table.
      const auto payload = frontend::readEthosUPayload(npu.tensor(op.inputs[0]).data);
      int blocks = 0;
      std::vector<std::uint64_t> tables;
      for (const auto& stream : payload.streams) {
        for (const auto& o : stream.operations) {
          if (o.kind == LOUPE_ETHOSU_OPERATION_DMA) tables.push_back(o.dma_length);
          if (o.kind == LOUPE_ETHOSU_OPERATION_POOL ||
              o.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE) {
            ++blocks;
          }
        }
      }
      // A row of 512 or more keeps its final shift at most 31 by a MIN.
      QCOMPARE(blocks, last + 31 + (dims.back() >= 512 ? 1 : 0));
      const std::vector<std::uint64_t> expected =
          alone ? std::vector<std::uint64_t>{1024} : std::vector<std::uint64_t>{256, 1024};
      QCOMPARE(tables, expected);
    }
  }

  void softmaxTheNpuCannotRunIsRefusedWithItsReason() {
    const auto refusal = [](ir::DType dtype, float outScale, int outZeroPoint) {
      test::GraphBuilder b;
      const int in = b.tensor("in", dtype, {1, 10}, test::perTensor(0.1f, 0));
      const int out = b.tensor("out", dtype, {1, 10}, test::perTensor(outScale, outZeroPoint));
      b.op(ir::OpType::Softmax, {in}, {out}, ir::SoftmaxAttrs{1.0f});
      const ir::Graph graph = b.inputs({in}).outputs({out}).build();
      const auto reasons =
          npuRefusals(graph, graph.operators.front(), *findNpuArchitecture("ethos-u55-128"));
      return reasons.empty() ? QString() : QString::fromStdString(reasons.front());
    };
    QCOMPARE(refusal(ir::DType::Int8, 1.0f / 256, -128), QString());
    const QString int16 = refusal(ir::DType::Int16, 1.0f / 32768, 0);
    QVERIFY2(int16.contains("is not an int8 tensor"), qPrintable(int16));
    const QString scale = refusal(ir::DType::Int8, 1.0f / 128, -128);
    QVERIFY2(scale.contains("scale 1/256"), qPrintable(scale));
  }
};

QTEST_GUILESS_MAIN(EthosuRegionCompilerTest)
#include "region_compiler_test.moc"
