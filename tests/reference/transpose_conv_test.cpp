// TRANSPOSE_CONV: float32, int8 per-channel and 16x8, with the scatter order,
// padding and requantisation of TFLite Micro's reference kernels.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace transpose_conv_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

namespace {

// Two output channels: input [1,2,3,2], weights [2,2,2,2] (Cout, KH, KW,
// Cin), SAME (no padding for 2x2 weights at stride 1), bias {3, -2}. The
// result was computed by hand in gather form, e.g. output (y=1, x=0, c=1) =
// input(0,0)·w(c1,1,0) + input(1,0)·w(c1,0,0) + bias = (3·3 + 2·4) + (4·7 +
// 3·8) - 2 = 67.
const std::vector<float> kInput2{3, 2, 1, -1, -2, -3, 4, 3, 2, -2, -3, -4};
const std::vector<float> kWeights2{1, 2, 3, 4, 3, 4, 5, 6, 7, 8, 5, 6, 3, 4, 1, 2};
const std::vector<float> kExpected2{10, 35, 19, 24, -6, -41, 30, 67, 51, 40, -29, -76};

template <typename T>
std::vector<T> quantised(const std::vector<float>& real, float scale, int zeroPoint) {
  std::vector<T> q;
  for (float v : real) q.push_back(static_cast<T>(std::lround(v / scale) + zeroPoint));
  return q;
}

struct TransposeConvCase {
  ir::DType activations = ir::DType::Float32;
  ir::DType weightsType = ir::DType::Float32;
  ir::DType biasType = ir::DType::Float32;
  ir::Shape input, weights, output;
  ir::Quantization inputQ, weightsQ, outputQ;
  ir::TransposeConvAttrs attrs;
  bool withBias = true;
};

template <typename W, typename B>
ir::Graph transposeConvGraph(const TransposeConvCase& c, const std::vector<W>& weights,
                             const std::vector<B>& bias) {
  GraphBuilder b;
  const int shape = b.constant<std::int32_t>("output_shape", ir::DType::Int32, {4},
                                             {c.output[0], c.output[1], c.output[2], c.output[3]});
  const int w = b.constant("weights", c.weightsType, c.weights, weights, c.weightsQ);
  const int in = b.tensor("in", c.activations, c.input, c.inputQ);
  std::vector<int> inputs{shape, w, in};
  if (c.withBias) {
    inputs.push_back(
        b.constant("bias", c.biasType, {static_cast<std::int32_t>(bias.size())}, bias));
  }
  const int out = b.tensor("out", c.activations, c.output, c.outputQ);
  b.op(ir::OpType::TransposeConv, inputs, {out}, c.attrs);
  return b.inputs({in}).outputs({out}).build();
}

template <typename T>
std::vector<T> run(const ir::Graph& graph, const std::vector<T>& input) {
  reference::ReferenceInterpreter interpreter(graph);
  interpreter.setInput(0, bytesOf(input));
  interpreter.invoke();
  return valuesOf<T>(interpreter.output(0));
}

}  // namespace

class TransposeConvTest : public QObject {
  Q_OBJECT

 private slots:
  void floatMatchesTfliteMicroGolden() {
    // TFLite Micro's float test: input [1,4,4,2] = 1..32, weights [1,3,3,2] =
    // 1..18, bias 0, SAME, stride 1. Small integers, so float is exact.
    TransposeConvCase c;
    c.input = {1, 4, 4, 2};
    c.weights = {1, 3, 3, 2};
    c.output = {1, 4, 4, 1};
    std::vector<float> input(32), weights(18);
    for (int i = 0; i < 32; ++i) input[i] = static_cast<float>(i + 1);
    for (int i = 0; i < 18; ++i) weights[i] = static_cast<float>(i + 1);
    const auto graph = transposeConvGraph(c, weights, std::vector<float>{0});
    QCOMPARE(run(graph, input), (std::vector<float>{184, 412, 568, 528, 678, 1347, 1689, 1434, 1494,
                                                    2715, 3057, 2442, 1968, 3352, 3652, 2760}));
  }

  void floatTwoChannelsWithBias() {
    TransposeConvCase c;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    const auto graph = transposeConvGraph(c, kWeights2, std::vector<float>{3, -2});
    QCOMPARE(run(graph, kInput2), kExpected2);
  }

  void floatStrideTwoValidScattersOverlappingBlocks() {
    // Input 2x2 {1,2,3,4}, 3x3 weights of ones, VALID, stride 2: each input
    // adds its value to the 3x3 block at (2y, 2x) of the 5x5 output; the
    // middle row and column receive two (the centre four) contributions.
    TransposeConvCase c;
    c.input = {1, 2, 2, 1};
    c.weights = {1, 3, 3, 1};
    c.output = {1, 5, 5, 1};
    c.attrs = {ir::Padding::Valid, 2, 2, ir::Activation::None};
    c.withBias = false;
    const auto graph = transposeConvGraph(c, std::vector<float>(9, 1.0f), std::vector<float>{});
    QCOMPARE(run(graph, std::vector<float>{1, 2, 3, 4}),
             (std::vector<float>{1, 1, 3, 2, 2, 1, 1, 3, 2, 2, 4, 4, 10,
                                 6, 6, 3, 3, 7, 4, 4, 3, 3, 7, 4, 4}));
  }

  void floatRelu6Clamps() {
    TransposeConvCase c;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    c.attrs.activation = ir::Activation::Relu6;
    const auto graph = transposeConvGraph(c, kWeights2, std::vector<float>{3, -2});
    std::vector<float> expected;
    for (float v : kExpected2) expected.push_back(std::min(std::max(v, 0.0f), 6.0f));
    QCOMPARE(run(graph, kInput2), expected);
  }

  void int8PerChannelWithUnitScalesIsExact() {
    // Input scale 1, zero point -1 (q = real - 1); weights scales {1, 1};
    // bias int32 in units of 1; output scale 1, zero point 2: the
    // multiplier is 1 and q_out = real + 2.
    TransposeConvCase c;
    c.activations = c.weightsType = ir::DType::Int8;
    c.biasType = ir::DType::Int32;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    c.inputQ = test::perTensor(1.0f, -1);
    c.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    c.outputQ = test::perTensor(1.0f, 2);
    const auto graph = transposeConvGraph(c, quantised<std::int8_t>(kWeights2, 1.0f, 0),
                                          std::vector<std::int32_t>{3, -2});
    QCOMPARE(run(graph, quantised<std::int8_t>(kInput2, 1.0f, -1)),
             quantised<std::int8_t>(kExpected2, 1.0f, 2));
  }

  void int8RequantisationRoundsLikeGemmlowp() {
    // Output scale 2: multiplier 0.5 (2^30, shift 0). Accumulators are the
    // real results 10, 35, 19, 24, -6, -41, 30, 67, 51, 40, -29, -76; halves
    // go through SaturatingRoundingDoublingHighMul, which rounds positive
    // ties up (17.5 -> 18, 9.5 -> 10, 25.5 -> 26) and negative ties towards
    // zero (-20.5 -> -20, -14.5 -> -14); 33.5 -> 34.
    TransposeConvCase c;
    c.activations = c.weightsType = ir::DType::Int8;
    c.biasType = ir::DType::Int32;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    c.inputQ = test::perTensor(1.0f, 0);
    c.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    c.outputQ = test::perTensor(2.0f, 0);
    const auto graph = transposeConvGraph(c, quantised<std::int8_t>(kWeights2, 1.0f, 0),
                                          std::vector<std::int32_t>{3, -2});
    QCOMPARE(run(graph, quantised<std::int8_t>(kInput2, 1.0f, 0)),
             (std::vector<std::int8_t>{5, 18, 10, 12, -3, -20, 15, 34, 26, 20, -14, -38}));
  }

  void int8FusedReluClampsAtTheZeroPoint() {
    // Relu on an output with zero point 2: the lower bound is q(0) = 2.
    TransposeConvCase c;
    c.activations = c.weightsType = ir::DType::Int8;
    c.biasType = ir::DType::Int32;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    c.inputQ = test::perTensor(1.0f, 0);
    c.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    c.outputQ = test::perTensor(1.0f, 2);
    c.attrs.activation = ir::Activation::Relu;
    const auto graph = transposeConvGraph(c, quantised<std::int8_t>(kWeights2, 1.0f, 0),
                                          std::vector<std::int32_t>{3, -2});
    std::vector<std::int8_t> expected;
    for (float v : kExpected2) expected.push_back(static_cast<std::int8_t>(std::max(v, 0.0f) + 2));
    QCOMPARE(run(graph, quantised<std::int8_t>(kInput2, 1.0f, 0)), expected);
  }

  void sixteenByEightWithInt64AndInt16Bias() {
    // Input scale 0.5 (q = 2 * real); per-channel weight scales {1, 0.25}
    // (channel 1 stored as 4 * w); output scale 1. Effective multipliers are
    // 0.5 and 0.125, biases 3 / 0.5 = 6 and -2 / 0.125 = -16: the int64
    // path reproduces the real result exactly.
    TransposeConvCase c;
    c.activations = ir::DType::Int16;
    c.weightsType = ir::DType::Int8;
    c.biasType = ir::DType::Int64;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    c.inputQ = test::perTensor(0.5f, 0);
    c.weightsQ = test::perChannel({1.0f, 0.25f}, 0);
    c.outputQ = test::perTensor(1.0f, 0);
    std::vector<std::int8_t> weights;
    for (std::size_t i = 0; i < kWeights2.size(); ++i) {
      weights.push_back(static_cast<std::int8_t>(kWeights2[i] * (i < 8 ? 1 : 4)));
    }
    const auto input = quantised<std::int16_t>(kInput2, 0.5f, 0);
    const auto expected = quantised<std::int16_t>(kExpected2, 1.0f, 0);
    QCOMPARE(run(transposeConvGraph(c, weights, std::vector<std::int64_t>{6, -16}), input),
             expected);
    c.biasType = ir::DType::Int16;
    QCOMPARE(run(transposeConvGraph(c, weights, std::vector<std::int16_t>{6, -16}), input),
             expected);
  }

  void sixteenByEightRoundsThroughTheReducedMultiplier() {
    // Output scale 4 with unit input and weight scales: multiplier 0.25 is
    // 2^30 with shift -1; the int64 path reduces it to 2^14 and computes
    // (x * 2^14 + 2^15) >> 16, i.e. floor(x / 4 + 0.5): 10 -> 3 (2.5 up),
    // -6 -> -1 (-1.5 up), -41 -> -10, -29 -> -7, 35 -> 9, 19 -> 5, 51 -> 13,
    // 67 -> 17, -76 -> -19.
    TransposeConvCase c;
    c.activations = ir::DType::Int16;
    c.weightsType = ir::DType::Int8;
    c.biasType = ir::DType::Int64;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    c.inputQ = test::perTensor(1.0f, 0);
    c.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    c.outputQ = test::perTensor(4.0f, 0);
    const auto graph = transposeConvGraph(c, quantised<std::int8_t>(kWeights2, 1.0f, 0),
                                          std::vector<std::int64_t>{3, -2});
    QCOMPARE(run(graph, quantised<std::int16_t>(kInput2, 1.0f, 0)),
             (std::vector<std::int16_t>{3, 9, 5, 6, -1, -10, 8, 17, 13, 10, -7, -19}));
  }

  void quantisedAgreesWithFloatWithinOneStep() {
    // Non-trivial scales: int8 result dequantised stays within one output
    // step (plus the input/weight quantisation error, small here) of float.
    const std::vector<float> input{0.3f,  -0.7f, 0.1f, 0.9f,  -0.2f, 0.5f,
                                   0.65f, -0.4f, 0.8f, -0.9f, 0.05f, 0.35f};
    const std::vector<float> weights{0.2f, -0.5f, 0.7f,  0.1f,  -0.3f, 0.9f,  0.4f,  -0.8f,
                                     0.6f, 0.25f, -0.6f, 0.45f, 0.15f, -0.2f, 0.55f, 0.3f};
    const float inScale = 1.0f / 128, outScale = 4.0f / 128;
    const std::vector<float> wScales{0.9f / 127, 0.6f / 127};
    TransposeConvCase f;
    f.input = {1, 2, 3, 2};
    f.weights = {2, 2, 2, 2};
    f.output = {1, 2, 3, 2};
    const auto floatOut =
        run(transposeConvGraph(f, weights, std::vector<float>{0.1f, -0.2f}), input);

    TransposeConvCase q = f;
    q.activations = q.weightsType = ir::DType::Int8;
    q.biasType = ir::DType::Int32;
    q.inputQ = test::perTensor(inScale, 3);
    q.weightsQ = test::perChannel(wScales, 0);
    q.outputQ = test::perTensor(outScale, -5);
    std::vector<std::int8_t> qWeights;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      qWeights.push_back(static_cast<std::int8_t>(std::lround(weights[i] / wScales[i / 8])));
    }
    const std::vector<std::int32_t> qBias{
        static_cast<std::int32_t>(std::lround(0.1f / (inScale * wScales[0]))),
        static_cast<std::int32_t>(std::lround(-0.2f / (inScale * wScales[1])))};
    const auto intOut =
        run(transposeConvGraph(q, qWeights, qBias), quantised<std::int8_t>(input, inScale, 3));
    for (std::size_t i = 0; i < floatOut.size(); ++i) {
      const float dequantised = outScale * static_cast<float>(intOut[i] + 5);
      QVERIFY2(
          std::abs(dequantised - floatOut[i]) <= 1.5f * outScale,
          qPrintable(
              QString("element %1: float %2, int8 %3").arg(i).arg(floatOut[i]).arg(dequantised)));
    }
  }

  void refusesUnsupportedCombinations() {
    TransposeConvCase c;
    c.activations = ir::DType::Int8;
    c.weightsType = ir::DType::Float32;
    c.input = {1, 2, 3, 2};
    c.weights = {2, 2, 2, 2};
    c.output = {1, 2, 3, 2};
    auto message = test::checkMessage(transposeConvGraph(c, kWeights2, std::vector<float>{0, 0}));
    QVERIFY2(message.find("dtypes int8/float32/int8 are not supported") != std::string::npos,
             message.c_str());

    TransposeConvCase q;
    q.activations = q.weightsType = ir::DType::Int8;
    q.biasType = ir::DType::Int64;
    q.input = {1, 2, 3, 2};
    q.weights = {2, 2, 2, 2};
    q.output = {1, 2, 3, 2};
    q.inputQ = test::perTensor(1.0f, 0);
    q.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    q.outputQ = test::perTensor(1.0f, 0);
    const auto w = quantised<std::int8_t>(kWeights2, 1.0f, 0);
    message = test::checkMessage(transposeConvGraph(q, w, std::vector<std::int64_t>{0, 0}));
    QVERIFY2(message.find("bias 'bias' has dtype int64 (expected int32)") != std::string::npos,
             message.c_str());

    q.biasType = ir::DType::Int32;
    q.weightsQ = test::perChannel({1.0f, 1.0f, 1.0f}, 0);
    message = test::checkMessage(transposeConvGraph(q, w, std::vector<std::int32_t>{0, 0}));
    QVERIFY2(message.find("weights have 3 scales (expected 1 or one per output channel: 2)") !=
                 std::string::npos,
             message.c_str());

    q.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    q.output = {1, 2, 3, 3};
    message = test::checkMessage(transposeConvGraph(q, w, std::vector<std::int32_t>{0, 0}));
    QVERIFY2(message.find("shapes do not match") != std::string::npos, message.c_str());

    TransposeConvCase s;
    s.activations = ir::DType::Int16;
    s.weightsType = ir::DType::Int8;
    s.biasType = ir::DType::Int64;
    s.input = {1, 2, 3, 2};
    s.weights = {2, 2, 2, 2};
    s.output = {1, 2, 3, 2};
    s.inputQ = test::perTensor(1.0f, 3);
    s.weightsQ = test::perChannel({1.0f, 1.0f}, 0);
    s.outputQ = test::perTensor(1.0f, 0);
    message = test::checkMessage(transposeConvGraph(s, w, std::vector<std::int64_t>{0, 0}));
    QVERIFY2(message.find("16x8 TRANSPOSE_CONV needs zero points of 0") != std::string::npos,
             message.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(TransposeConvTest)

}  // namespace transpose_conv_test

#include "transpose_conv_test.moc"
