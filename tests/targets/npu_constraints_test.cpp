// The NPU (Ethos-U55-like) constraints, one rule at a time: each accepts an
// operator at its limit and rejects one past it with a reason that names the
// value and the limit (plugins/targets/npu/npu_limits.h,
// docs/npu_constraints.md).
#include <QtTest>

#include <algorithm>

#include "graph_builder.h"
#include "targets/npu/npu_constraints.h"
#include "targets/npu/npu_limits.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

// A convolution-like operator with every knob a rule looks at. The output
// shape follows VALID padding.
struct ConvCase {
  ir::OpType type = ir::OpType::Conv2D;
  ir::Shape input{1, 16, 16, 4};
  int outChannels = 4;
  int kernelH = 3, kernelW = 3;
  int strideH = 1, strideW = 1;
  int dilationH = 1, dilationW = 1;
  ir::Activation activation = ir::Activation::None;
  ir::DType inputType = ir::DType::Int8;
  ir::DType outputType = ir::DType::Int8;
  ir::DType weightType = ir::DType::Int8;
  std::int64_t weightZeroPoint = 0;
  bool bias = true;
  ir::DType biasType = ir::DType::Int32;
  std::int64_t biasValue = 100;
  float inputScale = 0.5f, weightScale = 0.01f, outputScale = 0.25f;
  std::optional<ir::ExplicitPadding> explicitPadding{};
};

ir::Graph convGraph(const ConvCase& c) {
  GraphBuilder b;
  const int in = b.tensor("in", c.inputType, c.input, perTensor(c.inputScale, 0));
  const int inChannels = c.input.back();
  const int effectiveH = (c.kernelH - 1) * c.dilationH + 1;
  const int effectiveW = (c.kernelW - 1) * c.dilationW + 1;
  ir::Shape outShape{
      c.input[0], std::max(1, (c.input[1] - effectiveH) / std::max(1, c.strideH) + 1),
      std::max(1, (c.input[2] - effectiveW) / std::max(1, c.strideW) + 1), c.outChannels};
  ir::Shape weightShape{c.outChannels, c.kernelH, c.kernelW, inChannels};
  if (c.type == ir::OpType::DepthwiseConv2D) weightShape = {1, c.kernelH, c.kernelW, c.outChannels};
  if (c.type == ir::OpType::FullyConnected) {
    weightShape = {c.outChannels, inChannels};
    outShape = {c.input[0], c.outChannels};
  }
  const std::size_t weightCount =
      static_cast<std::size_t>(ir::elementCount(weightShape)) * ir::dtypeSize(c.weightType);
  ir::Quantization weightQuant = perChannel(std::vector<float>(c.outChannels, c.weightScale), 0);
  weightQuant.zeroPoints.assign(weightQuant.zeroPoints.size(), c.weightZeroPoint);
  const int weights = b.constant("w", c.weightType, weightShape,
                                 std::vector<std::int8_t>(weightCount, 1), weightQuant);
  int bias = ir::kNoTensor;
  if (c.bias && c.biasType == ir::DType::Int64) {
    bias = b.constant("b", c.biasType, {c.outChannels},
                      std::vector<std::int64_t>(c.outChannels, c.biasValue));
  } else if (c.bias) {
    bias = b.constant(
        "b", c.biasType, {c.outChannels},
        std::vector<std::int32_t>(c.outChannels, static_cast<std::int32_t>(c.biasValue)));
  }
  const int out = b.tensor("out", c.outputType, outShape, perTensor(c.outputScale, 0));
  ir::Attributes attributes;
  if (c.type == ir::OpType::Conv2D) {
    attributes = ir::Conv2DAttrs{ir::Padding::Valid, c.strideW,    c.strideH,        c.dilationW,
                                 c.dilationH,        c.activation, c.explicitPadding};
  } else if (c.type == ir::OpType::DepthwiseConv2D) {
    attributes = ir::DepthwiseConv2DAttrs{
        ir::Padding::Valid,         c.strideW,    c.strideH,        c.dilationW, c.dilationH,
        c.outChannels / inChannels, c.activation, c.explicitPadding};
  } else {
    attributes = ir::FullyConnectedAttrs{c.activation, false, false};
  }
  b.op(c.type, {in, weights, bias}, {out}, attributes);
  return b.inputs({in}).outputs({out}).build();
}

ir::Graph poolGraph(ir::OpType type, int kernelH, int kernelW, int strideH, int strideW,
                    ir::Padding padding = ir::Padding::Valid) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, 32, 32, 8}, perTensor(0.5f, 0));
  const int out = b.tensor("out", ir::DType::Int8, {1, 8, 8, 8}, perTensor(0.5f, 0));
  b.op(type, {in}, {out},
       ir::Pool2DAttrs{padding, strideW, strideH, kernelW, kernelH, ir::Activation::None, {}});
  return b.inputs({in}).outputs({out}).build();
}

ir::Graph elementwiseGraph(ir::OpType type, ir::Shape a, ir::Shape b,
                           ir::DType dtype = ir::DType::Int8) {
  GraphBuilder builder;
  const int x = builder.tensor("x", dtype, a, perTensor(0.5f, 0));
  const int y = builder.tensor("y", dtype, b, perTensor(0.5f, 0));
  const int out = builder.tensor("sum", dtype, a, perTensor(0.5f, 0));
  builder.op(type, {x, y}, {out}, ir::ElementwiseAttrs{});
  return builder.inputs({x, y}).outputs({out}).build();
}

std::vector<std::string> reasonsFor(const ir::Graph& graph) {
  return targets::npu::npuConstraintViolations(graph, graph.operators.front());
}

std::string joined(const std::vector<std::string>& reasons) {
  std::string text;
  for (const auto& reason : reasons) text += reason + "\n";
  return text;
}

bool has(const std::vector<std::string>& reasons, const std::string& reason) {
  return std::find(reasons.begin(), reasons.end(), reason) != reasons.end();
}

#define EXPECT_ACCEPTED(graph)                            \
  do {                                                    \
    const auto reasons_ = reasonsFor(graph);              \
    QVERIFY2(reasons_.empty(), joined(reasons_).c_str()); \
  } while (0)

#define EXPECT_REASON(graph, text)                           \
  do {                                                       \
    const auto reasons_ = reasonsFor(graph);                 \
    QVERIFY2(has(reasons_, text), joined(reasons_).c_str()); \
  } while (0)

}  // namespace

class NpuConstraints : public QObject {
  Q_OBJECT

 private slots:
  void acceptsTheSupportedOperatorTypes() {
    EXPECT_ACCEPTED(convGraph({}));
    EXPECT_ACCEPTED(convGraph({.type = ir::OpType::DepthwiseConv2D}));
    EXPECT_ACCEPTED(convGraph({.type = ir::OpType::FullyConnected, .input = {1, 64}}));
    EXPECT_ACCEPTED(
        convGraph({.type = ir::OpType::FullyConnected, .input = {1, 64}, .bias = false}));
    EXPECT_ACCEPTED(poolGraph(ir::OpType::MaxPool2D, 2, 2, 2, 2));
    EXPECT_ACCEPTED(poolGraph(ir::OpType::AveragePool2D, 3, 3, 1, 1));
    for (auto type : {ir::OpType::Add, ir::OpType::Sub, ir::OpType::Mul}) {
      EXPECT_ACCEPTED(elementwiseGraph(type, {1, 4, 4, 8}, {1, 4, 4, 8}));
    }
  }

  void rejectsOtherOperatorTypes() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 10}, perTensor(0.5f, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 10}, perTensor(1.0f / 256, -128));
    b.op(ir::OpType::Softmax, {in}, {out}, ir::SoftmaxAttrs{});
    const auto reasons = reasonsFor(b.build());
    QCOMPARE(reasons, std::vector<std::string>{
                          "operator type SOFTMAX is not supported by the NPU (Ethos-U55-like)"});
  }

  void averagePoolWithSamePaddingIsAccepted() {
    EXPECT_ACCEPTED(poolGraph(ir::OpType::AveragePool2D, 3, 3, 1, 1, ir::Padding::Same));
  }

  void activationsMustBeInt8PerTensor() {
    EXPECT_REASON(convGraph({.inputType = ir::DType::Float32}),
                  "input 'in' (%0) is float32, not int8");
    EXPECT_REASON(convGraph({.inputType = ir::DType::Int16}), "input 'in' (%0) is int16, not int8");
    EXPECT_REASON(convGraph({.outputType = ir::DType::UInt8}),
                  "output 'out' (%3) is uint8, not int8");
    ir::Graph perChannelInput = convGraph({});
    perChannelInput.tensor(0).quantization = perChannel({0.5f, 0.5f, 0.5f, 0.5f}, 3);
    EXPECT_REASON(perChannelInput,
                  "input 'in' (%0) is quantised per channel (4 scales); activations must be "
                  "quantised per tensor");
  }

  void weightsMustBeSymmetricInt8AndBiasInt32() {
    EXPECT_REASON(convGraph({.weightType = ir::DType::Int16}),
                  "weights 'w' (%1) are int16, not int8");
    EXPECT_REASON(convGraph({.weightZeroPoint = 3}),
                  "weights 'w' (%1) have zero point 3 (channel 0); they must be symmetric (0)");
    EXPECT_REASON(convGraph({.biasType = ir::DType::Int64}), "bias 'b' (%2) is int64, not int32");
    EXPECT_REASON(convGraph({.bias = false}),
                  "CONV_2D has no bias; only FULLY_CONNECTED may leave it out");
    EXPECT_REASON(convGraph({.type = ir::OpType::DepthwiseConv2D, .bias = false}),
                  "DEPTHWISE_CONV_2D has no bias; only FULLY_CONNECTED may leave it out");
  }

  void fusedActivations() {
    for (auto activation : {ir::Activation::None, ir::Activation::Relu, ir::Activation::Relu6,
                            ir::Activation::ReluN1To1}) {
      EXPECT_ACCEPTED(convGraph({.activation = activation}));
    }
    EXPECT_REASON(convGraph({.activation = ir::Activation::Tanh}),
                  "fused activation TANH is not one of NONE, RELU, RELU6, RELU_N1_TO_1");
    EXPECT_REASON(convGraph({.activation = ir::Activation::SignBit}),
                  "fused activation SIGN_BIT is not one of NONE, RELU, RELU6, RELU_N1_TO_1");
  }

  void strideOneToThree() {
    EXPECT_ACCEPTED(convGraph({.strideH = 3, .strideW = 3}));
    EXPECT_REASON(convGraph({.strideH = 4}), "stride height 4 exceeds 3");
    EXPECT_REASON(convGraph({.strideW = 4}), "stride width 4 exceeds 3");
    EXPECT_REASON(poolGraph(ir::OpType::MaxPool2D, 2, 2, 4, 1), "stride height 4 exceeds 3");
    EXPECT_REASON(convGraph({.strideW = 0}), "stride width 0 is below 1");
  }

  void dilationOneToTwo() {
    EXPECT_ACCEPTED(convGraph({.dilationH = 2, .dilationW = 2}));
    EXPECT_REASON(convGraph({.dilationW = 3}), "dilation width 3 exceeds 2");
  }

  void poolingKernelUpToEight() {
    EXPECT_ACCEPTED(poolGraph(ir::OpType::AveragePool2D, 8, 8, 1, 1));
    EXPECT_REASON(poolGraph(ir::OpType::AveragePool2D, 9, 1, 1, 1), "kernel height 9 exceeds 8");
    EXPECT_REASON(poolGraph(ir::OpType::MaxPool2D, 1, 9, 1, 1), "kernel width 9 exceeds 8");
  }

  void convolutionKernelUpTo64AndArea4096() {
    EXPECT_ACCEPTED(convGraph({.input = {1, 64, 64, 1}, .kernelH = 64, .kernelW = 64}));
    EXPECT_ACCEPTED(
        convGraph({.input = {1, 70, 16, 4}, .kernelH = 32, .kernelW = 1, .dilationH = 2}));
    EXPECT_REASON(convGraph({.input = {1, 70, 16, 4}, .kernelH = 33, .kernelW = 1, .dilationH = 2}),
                  "dilated kernel height 65 exceeds 64");
    const ir::Graph large = convGraph({.input = {1, 65, 65, 1}, .kernelH = 65, .kernelW = 65});
    EXPECT_REASON(large, "dilated kernel width 65 exceeds 64");
    EXPECT_REASON(large, "kernel area 65x65 = 4,225 exceeds 4,096");
  }

  void explicitPaddingWithinTheWindow() {
    EXPECT_ACCEPTED(convGraph({.explicitPadding = ir::ExplicitPadding{1, 1, 2, 2}}));
    EXPECT_REASON(convGraph({.explicitPadding = ir::ExplicitPadding{3, 0, 0, 0}}),
                  "padding top 3 exceeds 2");
  }

  void depthMultiplierOne() {
    EXPECT_REASON(convGraph({.type = ir::OpType::DepthwiseConv2D, .outChannels = 8}),
                  "depth multiplier 2 is not 1");
  }

  void featureMapLimits() {
    EXPECT_REASON(convGraph({.input = {2, 16, 16, 4}}), "input 'in' (%0) batch 2 exceeds 1");
    EXPECT_ACCEPTED(elementwiseGraph(ir::OpType::Add, {1, 1, 65536, 1}, {1, 1, 65536, 1}));
    EXPECT_REASON(elementwiseGraph(ir::OpType::Add, {1, 1, 65537, 1}, {1, 1, 65537, 1}),
                  "input 'x' (%0) width 65,537 exceeds 65,536");
    EXPECT_REASON(elementwiseGraph(ir::OpType::Add, {1, 65537, 1, 1}, {1, 65537, 1, 1}),
                  "output 'sum' (%2) height 65,537 exceeds 65,536");
    EXPECT_REASON(elementwiseGraph(ir::OpType::Mul, {1, 1, 1, 65537}, {1, 1, 1, 65537}),
                  "input 'y' (%1) channels 65,537 exceeds 65,536");
    EXPECT_REASON(elementwiseGraph(ir::OpType::Sub, {1, 1, 2, 2, 2}, {1, 1, 2, 2, 2}),
                  "input 'x' (%0) has rank 5, more than 4");
    EXPECT_REASON(convGraph({.type = ir::OpType::FullyConnected, .input = {3, 64}}),
                  "input 'in' (%0) batch 3 exceeds 1");
  }

  // A FULLY_CONNECTED input of any rank is [rows, the weights' input channels]:
  // [1,5,5,16] against [4,400] weights is one row.
  void fullyConnectedInputIsFlattened() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 5, 5, 16}, perTensor(0.5f, 0));
    const int w = b.constant("w", ir::DType::Int8, {4, 400}, std::vector<std::int8_t>(1600, 1),
                             perChannel({0.01f, 0.01f, 0.01f, 0.01f}, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 4}, perTensor(0.25f, 0));
    b.op(ir::OpType::FullyConnected, {in, w, ir::kNoTensor}, {out}, ir::FullyConnectedAttrs{});
    EXPECT_ACCEPTED(b.build());
  }

  void weightsUpToOneMiB() {
    // 1x1, 1024 input channels: 1,024 output channels are exactly 1 MiB.
    EXPECT_ACCEPTED(
        convGraph({.input = {1, 1, 1, 1024}, .outChannels = 1024, .kernelH = 1, .kernelW = 1}));
    EXPECT_REASON(
        convGraph({.input = {1, 1, 1, 1024}, .outChannels = 1025, .kernelH = 1, .kernelW = 1}),
        "weights 'w' (%1) are 1,049,600 bytes, more than 1,048,576 (1 MiB)");
  }

  void biasWithin40Bits() {
    const std::int64_t limit = targets::npu::kBiasMagnitudeLimit;
    const auto fits = reasonsFor(convGraph({.biasType = ir::DType::Int64, .biasValue = limit - 1}));
    QCOMPARE(fits, std::vector<std::string>{"bias 'b' (%2) is int64, not int32"});
    EXPECT_REASON(
        convGraph({.biasType = ir::DType::Int64, .biasValue = -limit}),
        "bias 'b' (%2) value -549755813888 (channel 0) does not fit in 40 bits (|b| < 2^39)");
  }

  void requantisationShiftRepresentable() {
    // 1 x 1 / 2^-40: QuantizeMultiplier needs shift 41.
    EXPECT_REASON(
        convGraph({.inputScale = 1.0f, .weightScale = 1.0f, .outputScale = 0x1p-40f}),
        "effective scale 1.09951163e+12 (channel 0) needs shift 41, more than 30 (TFLite's "
        "QuantizeMultiplier)");
    // 2^-40 needs a shift below -31: TFLite flushes the channel to zero, and
    // the NPU does the same (vww_96_int8 has such channels).
    EXPECT_ACCEPTED(
        convGraph({.inputScale = 0x1p-20f, .weightScale = 0x1p-20f, .outputScale = 1.0f}));
    EXPECT_ACCEPTED(convGraph({.inputScale = 1.0f, .weightScale = 1.0f, .outputScale = 0x1p-29f}));
  }

  void elementwiseNeedsSameShapesAndInt8() {
    EXPECT_REASON(elementwiseGraph(ir::OpType::Add, {1, 4, 4, 8}, {1, 1, 1, 8}),
                  "the inputs' shapes differ ([1,4,4,8] and [1,1,1,8]); both must have the same "
                  "shape");
    EXPECT_REASON(elementwiseGraph(ir::OpType::Mul, {1, 4, 4, 8}, {1, 4, 4, 8}, ir::DType::Int16),
                  "input 'y' (%1) is int16, not int8");
  }
};

QTEST_APPLESS_MAIN(NpuConstraints)
#include "npu_constraints_test.moc"
