// The software NPU (LoupeNpuExecute) on what the shared models do not hold:
// SUB, MUL, MAX_POOL_2D, padded average pools, strides up to 3, dilation 2,
// RELU6 and RELU_N1_TO_1, per-tensor weights, a fully-connected layer without
// bias, each against the reference interpreter on random int8 inputs; and
// every region, offset and length checked, with the error code that says
// which check failed, so that no corruption of a stream makes it touch a byte
// outside the regions it was given.
#include <QtTest>

#include <map>
#include <memory>
#include <random>

#include "graph_builder.h"
#include "loupe/npu.h"
#include "npu_test_support.h"
#include "reference/reference_interpreter.h"
#include "targets/npu/command_stream.h"
#include "tvm/runtime/crt/error_codes.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

std::vector<std::uint8_t> randomBytes(std::int64_t count, std::mt19937& rng) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(count));
  for (auto& b : bytes) b = static_cast<std::uint8_t>(byte(rng));
  return bytes;
}

template <typename T>
std::vector<T> randomValues(std::int64_t count, int lo, int hi, std::mt19937& rng) {
  std::uniform_int_distribution<int> value(lo, hi);
  std::vector<T> values(static_cast<std::size_t>(count));
  for (auto& v : values) v = static_cast<T>(value(rng));
  return values;
}

std::vector<float> channelScales(int channels, std::mt19937& rng) {
  std::uniform_real_distribution<float> scale(0.002f, 0.02f);
  std::vector<float> scales(static_cast<std::size_t>(channels));
  for (auto& s : scales) s = scale(rng);
  return scales;
}

// Runs operator 0 of a one-operator graph on the software NPU (every MAC
// configuration) and on the reference interpreter with random inputs.
void expectSameAsReference(const ir::Graph& graph, std::mt19937& rng, const char* what) {
  const ir::Operator& op = graph.operators.at(0);
  std::vector<std::vector<std::uint8_t>> inputs;
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < graph.inputs.size(); ++i) {
    inputs.push_back(randomBytes(graph.tensor(graph.inputs[i]).byteSize(), rng));
    interpreter.setInput(i, inputs.back());
  }
  interpreter.invoke();
  const auto expected = interpreter.output(0);
  for (npu::MacConfig config : npu::kAllMacConfigs) {
    const auto compiled = npu::compileNpuOperator(graph, op, config);
    const auto run = test::runOnSoftwareNpu(
        compiled, inputs[0], inputs.size() > 1 ? inputs[1] : std::vector<std::uint8_t>{},
        expected.size());
    const std::string where = std::string(what) + " on " + npu::macConfigName(config);
    QVERIFY2(run.status == kTvmErrorNoError,
             (where + ": status " + std::to_string(run.status)).c_str());
    QVERIFY2(std::equal(expected.begin(), expected.end(), run.ofm.begin()), where.c_str());
  }
}

ir::Graph convGraph(ir::Shape input, int outChannels, int kernel, int stride, int dilation,
                    ir::Padding padding, ir::Activation activation, bool perChannelWeights,
                    std::mt19937& rng) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, input, perTensor(0.05f, 7));
  const int depth = input[3];
  const auto weights = randomValues<std::int8_t>(
      std::int64_t{outChannels} * kernel * kernel * depth, -127, 127, rng);
  const int w = b.constant(
      "w", ir::DType::Int8, {outChannels, kernel, kernel, depth}, weights,
      perChannelWeights ? perChannel(channelScales(outChannels, rng), 0) : perTensor(0.01f, 0));
  const int bias = b.constant("b", ir::DType::Int32, {outChannels},
                              randomValues<std::int32_t>(outChannels, -5000, 5000, rng));
  const int effective = (kernel - 1) * dilation + 1;
  const int outH = padding == ir::Padding::Same ? (input[1] + stride - 1) / stride
                                                : (input[1] - effective + stride) / stride;
  const int outW = padding == ir::Padding::Same ? (input[2] + stride - 1) / stride
                                                : (input[2] - effective + stride) / stride;
  const int out =
      b.tensor("out", ir::DType::Int8, {1, outH, outW, outChannels}, perTensor(0.1f, -5));
  ir::Conv2DAttrs attrs;
  attrs.padding = padding;
  attrs.strideH = attrs.strideW = stride;
  attrs.dilationH = attrs.dilationW = dilation;
  attrs.activation = activation;
  b.op(ir::OpType::Conv2D, {in, w, bias}, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

ir::Graph depthwiseGraph(int stride, int dilation, ir::Activation activation, std::mt19937& rng) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, 11, 9, 20}, perTensor(0.05f, -3));
  const int w = b.constant("w", ir::DType::Int8, {1, 3, 3, 20},
                           randomValues<std::int8_t>(180, -127, 127, rng),
                           perChannel(channelScales(20, rng), 3));
  const int bias =
      b.constant("b", ir::DType::Int32, {20}, randomValues<std::int32_t>(20, -3000, 3000, rng));
  const int out =
      b.tensor("out", ir::DType::Int8,
               {1, (11 + stride - 1) / stride, (9 + stride - 1) / stride, 20}, perTensor(0.08f, 4));
  ir::DepthwiseConv2DAttrs attrs;
  attrs.padding = ir::Padding::Same;
  attrs.strideH = attrs.strideW = stride;
  attrs.dilationH = attrs.dilationW = dilation;
  attrs.activation = activation;
  b.op(ir::OpType::DepthwiseConv2D, {in, w, bias}, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

ir::Graph poolGraph(ir::OpType type, int filter, int stride, ir::Padding padding,
                    ir::Activation activation) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, 10, 13, 6}, perTensor(0.1f, 2));
  const int effective = filter;
  const int outH = padding == ir::Padding::Same ? (10 + stride - 1) / stride
                                                : (10 - effective + stride) / stride;
  const int outW = padding == ir::Padding::Same ? (13 + stride - 1) / stride
                                                : (13 - effective + stride) / stride;
  const int out = b.tensor("out", ir::DType::Int8, {1, outH, outW, 6}, perTensor(0.1f, 2));
  ir::Pool2DAttrs attrs;
  attrs.padding = padding;
  attrs.filterH = attrs.filterW = filter;
  attrs.strideH = attrs.strideW = stride;
  attrs.activation = activation;
  b.op(type, {in}, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

ir::Graph elementwiseGraph(ir::OpType type, ir::Activation activation) {
  GraphBuilder b;
  const int a = b.tensor("a", ir::DType::Int8, {1, 4, 5, 7}, perTensor(0.05f, -10));
  const int c = b.tensor("c", ir::DType::Int8, {1, 4, 5, 7}, perTensor(0.03f, 20));
  const int out = b.tensor("out", ir::DType::Int8, {1, 4, 5, 7}, perTensor(0.07f, 3));
  ir::ElementwiseAttrs attrs;
  attrs.activation = activation;
  b.op(type, {a, c}, {out}, attrs);
  return b.inputs({a, c}).outputs({out}).build();
}

ir::Graph fullyConnectedGraph(bool withBias, std::mt19937& rng) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, 100}, perTensor(0.04f, -6));
  const int w = b.constant("w", ir::DType::Int8, {30, 100},
                           randomValues<std::int8_t>(3000, -127, 127, rng), perTensor(0.01f, 0));
  const int bias = withBias ? b.constant("b", ir::DType::Int32, {30},
                                         randomValues<std::int32_t>(30, -2000, 2000, rng))
                            : ir::kNoTensor;
  const int out = b.tensor("out", ir::DType::Int8, {1, 30}, perTensor(0.2f, 1));
  ir::FullyConnectedAttrs attrs;
  attrs.activation = ir::Activation::Relu6;
  b.op(ir::OpType::FullyConnected, {in, w, bias}, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

}  // namespace

class SoftwareNpuTest : public QObject {
  Q_OBJECT

 private slots:
  void convolutionsMatchTheReference() {
    std::mt19937 rng(11);
    expectSameAsReference(
        convGraph({1, 12, 10, 5}, 9, 3, 3, 1, ir::Padding::Same, ir::Activation::Relu6, true, rng),
        rng, "conv 3x3 stride 3 SAME RELU6");
    expectSameAsReference(convGraph({1, 13, 11, 3}, 70, 3, 1, 2, ir::Padding::Same,
                                    ir::Activation::ReluN1To1, true, rng),
                          rng, "conv 3x3 dilation 2 SAME RELU_N1_TO_1, 70 channels");
    expectSameAsReference(
        convGraph({1, 9, 9, 16}, 8, 5, 2, 1, ir::Padding::Valid, ir::Activation::None, false, rng),
        rng, "conv 5x5 stride 2 VALID per-tensor");
    expectSameAsReference(
        convGraph({1, 40, 40, 2}, 4, 1, 1, 1, ir::Padding::Valid, ir::Activation::Relu, true, rng),
        rng, "conv 1x1 on a 40x40 OFM (many blocks)");
  }

  void depthwiseConvolutionsMatchTheReference() {
    std::mt19937 rng(12);
    expectSameAsReference(depthwiseGraph(2, 1, ir::Activation::Relu, rng), rng,
                          "depthwise stride 2");
    expectSameAsReference(depthwiseGraph(1, 2, ir::Activation::Relu6, rng), rng,
                          "depthwise dilation 2");
    expectSameAsReference(depthwiseGraph(3, 1, ir::Activation::None, rng), rng,
                          "depthwise stride 3");
  }

  void poolsMatchTheReference() {
    std::mt19937 rng(13);
    expectSameAsReference(
        poolGraph(ir::OpType::MaxPool2D, 3, 2, ir::Padding::Same, ir::Activation::None), rng,
        "max pool 3x3 stride 2 SAME");
    expectSameAsReference(
        poolGraph(ir::OpType::MaxPool2D, 2, 2, ir::Padding::Valid, ir::Activation::Relu6), rng,
        "max pool 2x2 VALID RELU6");
    expectSameAsReference(
        poolGraph(ir::OpType::AveragePool2D, 3, 1, ir::Padding::Same, ir::Activation::None), rng,
        "average pool 3x3 stride 1 SAME (padding not counted)");
    expectSameAsReference(
        poolGraph(ir::OpType::AveragePool2D, 8, 3, ir::Padding::Same, ir::Activation::Relu), rng,
        "average pool 8x8 stride 3 SAME RELU");
  }

  void elementwiseOperationsMatchTheReference() {
    std::mt19937 rng(14);
    for (ir::OpType type : {ir::OpType::Add, ir::OpType::Sub, ir::OpType::Mul}) {
      for (ir::Activation activation :
           {ir::Activation::None, ir::Activation::Relu, ir::Activation::ReluN1To1}) {
        expectSameAsReference(
            elementwiseGraph(type, activation), rng,
            (std::string(ir::opTypeName(type)) + " " + std::string(ir::activationName(activation)))
                .c_str());
      }
    }
  }

  void fullyConnectedLayersMatchTheReference() {
    std::mt19937 rng(15);
    expectSameAsReference(fullyConnectedGraph(true, rng), rng, "FC per-tensor with bias");
    expectSameAsReference(fullyConnectedGraph(false, rng), rng, "FC without bias");
  }

  // Each check of LoupeNpuExecute, on a compiled convolution.
  void everyRegionOffsetAndLengthIsChecked() {
    std::mt19937 rng(16);
    const ir::Graph graph =
        convGraph({1, 6, 6, 4}, 8, 3, 1, 1, ir::Padding::Same, ir::Activation::None, true, rng);
    const auto good = npu::compileNpuOperator(graph, graph.operators[0], npu::MacConfig::Macs64);
    auto ifm = randomBytes(6 * 6 * 4, rng);
    const std::size_t ofmBytes = 6 * 6 * 8;
    QCOMPARE(test::runOnSoftwareNpu(good, ifm, {}, ofmBytes).status, kTvmErrorNoError);

    // Regions too small for the IFM or the OFM; the OFM is not written.
    ifm.pop_back();
    QCOMPARE(test::runOnSoftwareNpu(good, ifm, {}, ofmBytes).status, kTvmErrorNpuOutOfBounds);
    ifm.push_back(0);
    const auto shortOfm = test::runOnSoftwareNpu(good, ifm, {}, ofmBytes - 1);
    QCOMPARE(shortOfm.status, kTvmErrorNpuOutOfBounds);
    QVERIFY(std::all_of(shortOfm.ofm.begin(), shortOfm.ofm.end(), [](auto b) { return b == 0; }));

    // Constants cut short: the weight stream reaches past region 0.
    auto cut = good;
    cut.legalized.constants.pop_back();
    QCOMPARE(test::runOnSoftwareNpu(cut, ifm, {}, ofmBytes).status, kTvmErrorNpuOutOfBounds);

    // A region with no base address, and a region index beyond the table.
    QCOMPARE(test::runOnSoftwareNpu(good, {}, {}, ofmBytes).status, kTvmErrorNpuRegionInvalid);
    auto moved = good.legalized.operation;
    moved.ofm.region = 7;
    auto relocated = good;
    relocated.commandStream = npu::encodeCommandStream({&moved, 1});
    QCOMPARE(test::runOnSoftwareNpu(relocated, ifm, {}, ofmBytes).status,
             kTvmErrorNpuRegionInvalid);

    // An offset beyond the region.
    auto shifted = good.legalized.operation;
    shifted.ifm.offset = 1;
    auto offset = good;
    offset.commandStream = npu::encodeCommandStream({&shifted, 1});
    QCOMPARE(test::runOnSoftwareNpu(offset, ifm, {}, ofmBytes).status, kTvmErrorNpuOutOfBounds);

    // A block with more elements than the device's accumulators.
    auto wide = good.legalized.operation;
    wide.block = {64, 64, 64};
    auto blocked = good;
    blocked.commandStream = npu::encodeCommandStream({&wide, 1});
    QCOMPARE(test::runOnSoftwareNpu(blocked, ifm, {}, ofmBytes).status, kTvmErrorNpuBlockTooLarge);

    // A stride beyond the NPU's, and an OFM the window does not give.
    auto strided = good.legalized.operation;
    strided.kernel.strideX = 4;
    auto invalid = good;
    invalid.commandStream = npu::encodeCommandStream({&strided, 1});
    QCOMPARE(test::runOnSoftwareNpu(invalid, ifm, {}, ofmBytes).status,
             kTvmErrorNpuInvalidOperation);
    auto misshaped = good.legalized.operation;
    misshaped.ofm = npu::contiguousFeatureMap(LOUPE_NPU_REGION_OFM, 5, 6, 8);
    invalid.commandStream = npu::encodeCommandStream({&misshaped, 1});
    QCOMPARE(test::runOnSoftwareNpu(invalid, ifm, {}, ofmBytes).status,
             kTvmErrorNpuInvalidOperation);

    // A weight stream whose sub-streams hold fewer bytes than it says.
    auto longer = good.legalized.operation;
    longer.weights.length += 1;
    auto padded = good;
    padded.legalized.constants.push_back(0);
    padded.commandStream = npu::encodeCommandStream({&longer, 1});
    QCOMPARE(test::runOnSoftwareNpu(padded, ifm, {}, ofmBytes).status, kTvmErrorNpuBadWeightStream);

    // Fewer regions than the stream names, and no device.
    std::uint8_t* bases[2] = {};
    const std::size_t sizes[2] = {};
    loupe_npu_device device;
    QCOMPARE(LoupeNpuDeviceInit(&device), kTvmErrorNoError);
    QCOMPARE(LoupeNpuExecute(&device, good.commandStream.data(), good.commandStream.size(), bases,
                             sizes, 2),
             kTvmErrorNpuRegionInvalid);
    QCOMPARE(LoupeNpuExecute(nullptr, good.commandStream.data(), good.commandStream.size(), bases,
                             sizes, 2),
             kTvmErrorDeviceInvalid);
    QCOMPARE(LoupeNpuDeviceInit(nullptr), kTvmErrorDeviceInvalid);
  }

  // Thousands of streams with random bytes changed (conv, depthwise, pool and
  // ADD in one stream): whatever status comes back, no byte past a region's
  // end is written and the constants (region 0) are left as they were.
  void corruptStreamsNeverReachOutsideTheirRegions() {
    std::mt19937 rng(18);
    const ir::Graph conv =
        convGraph({1, 7, 6, 5}, 9, 3, 2, 1, ir::Padding::Same, ir::Activation::Relu, true, rng);
    const ir::Graph dw = depthwiseGraph(1, 2, ir::Activation::None, rng);
    const ir::Graph pool =
        poolGraph(ir::OpType::AveragePool2D, 3, 1, ir::Padding::Same, ir::Activation::None);
    const ir::Graph add = elementwiseGraph(ir::OpType::Add, ir::Activation::None);
    std::vector<npu::NpuOperation> ops;
    std::vector<std::uint8_t> constants;
    for (const ir::Graph* graph : {&conv, &dw, &pool, &add}) {
      auto lowered =
          npu::compileNpuOperator(*graph, graph->operators[0], npu::MacConfig::Macs128).legalized;
      // Each operation's constants after the previous ones in region 0.
      lowered.operation.weights.offset += static_cast<std::uint32_t>(constants.size());
      lowered.operation.scales.offset += static_cast<std::uint32_t>(constants.size());
      constants.insert(constants.end(), lowered.constants.begin(), lowered.constants.end());
      ops.push_back(lowered.operation);
    }
    const auto stream = npu::encodeCommandStream(ops);
    constexpr std::size_t kRegionBytes = 4096, kGuardBytes = 256;
    constexpr std::uint8_t kGuard = 0xA5;
    const std::vector<std::uint8_t> ifm = randomBytes(kRegionBytes, rng);
    std::uniform_int_distribution<std::size_t> position(0, stream.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255), changes(1, 4);
    auto device = std::make_unique<loupe_npu_device>();
    std::map<std::int32_t, int> statuses;
    for (int round = 0; round < 3000; ++round) {
      auto corrupt = stream;
      for (int i = changes(rng); i > 0; --i) {
        corrupt[position(rng)] = static_cast<std::uint8_t>(byte(rng));
      }
      // Regions 0..4, each followed by guard bytes the NPU is not told about.
      std::vector<std::vector<std::uint8_t>> regions = {constants, {}, ifm, ifm, {}};
      regions[1].assign(kRegionBytes, 0);
      regions[4].assign(kRegionBytes, 0);
      std::uint8_t* bases[LOUPE_NPU_REGION_COUNT] = {};
      std::size_t sizes[LOUPE_NPU_REGION_COUNT] = {};
      for (std::size_t r = 0; r < regions.size(); ++r) {
        sizes[r] = regions[r].size();
        regions[r].resize(sizes[r] + kGuardBytes, kGuard);
        bases[r] = regions[r].data();
      }
      LoupeNpuDeviceInit(device.get());
      ++statuses[LoupeNpuExecute(device.get(), corrupt.data(), corrupt.size(), bases, sizes,
                                 LOUPE_NPU_REGION_COUNT)];
      for (std::size_t r = 0; r < regions.size(); ++r) {
        QVERIFY2(
            std::all_of(regions[r].begin() + static_cast<std::ptrdiff_t>(sizes[r]),
                        regions[r].end(), [](std::uint8_t b) { return b == kGuard; }),
            ("round " + std::to_string(round) + " wrote past region " + std::to_string(r)).c_str());
      }
      QVERIFY(std::equal(constants.begin(), constants.end(), regions[0].begin()));
    }
    QString seen = "statuses:";
    for (const auto& [status, count] : statuses) {
      seen += QString(" 0x%1 x%2").arg(status, 0, 16).arg(count);
    }
    qInfo().noquote() << seen;
    QVERIFY(statuses.size() > 3);
  }

  void theDeviceCountsTheOperationsItRan() {
    std::mt19937 rng(17);
    const ir::Graph graph = elementwiseGraph(ir::OpType::Add, ir::Activation::None);
    const auto compiled =
        npu::compileNpuOperator(graph, graph.operators[0], npu::MacConfig::Macs32);
    // The same operation twice in one stream.
    const npu::NpuOperation ops[] = {compiled.legalized.operation, compiled.legalized.operation};
    const auto stream = npu::encodeCommandStream(ops);
    auto a = randomBytes(140, rng), c = randomBytes(140, rng);
    std::vector<std::uint8_t> out(140);
    std::uint8_t* bases[LOUPE_NPU_REGION_COUNT] = {nullptr, nullptr, a.data(), c.data(),
                                                   out.data()};
    const std::size_t sizes[LOUPE_NPU_REGION_COUNT] = {0, 0, 140, 140, 140};
    loupe_npu_device device;
    LoupeNpuDeviceInit(&device);
    QCOMPARE(LoupeNpuExecute(&device, stream.data(), stream.size(), bases, sizes,
                             LOUPE_NPU_REGION_COUNT),
             kTvmErrorNoError);
    QCOMPARE(device.operations_run, 2u);
  }
};

QTEST_GUILESS_MAIN(SoftwareNpuTest)
#include "software_npu_test.moc"
