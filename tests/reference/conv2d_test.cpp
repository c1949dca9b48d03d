// CONV_2D reference kernel: float VALID/SAME (asymmetric padding), strides,
// dilation, groups; int8 per-channel requantisation with rounding and fused
// activation clamps; 16x8 with int64 and int32 bias; check reasons.
#include <QtTest>

#include <numeric>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace conv2d_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

ir::Conv2DAttrs convAttrs(ir::Padding padding, int stride = 1, int dilation = 1,
                          ir::Activation activation = ir::Activation::None) {
  ir::Conv2DAttrs attrs;
  attrs.padding = padding;
  attrs.strideH = attrs.strideW = stride;
  attrs.dilationH = attrs.dilationW = dilation;
  attrs.activation = activation;
  return attrs;
}

std::vector<float> iota(int count, float first) {
  std::vector<float> values(static_cast<std::size_t>(count));
  std::iota(values.begin(), values.end(), first);
  return values;
}

// A float convolution of `input` with a [1, fh, fw, 1] filter of ones.
std::vector<float> convolveOnes(ir::Shape inputShape, ir::Shape outputShape, int filterSize,
                                ir::Conv2DAttrs attrs, const std::vector<float>& input) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Float32, inputShape);
  const int w =
      b.constant("w", ir::DType::Float32, {1, filterSize, filterSize, 1},
                 std::vector<float>(static_cast<std::size_t>(filterSize * filterSize), 1));
  const int out = b.tensor("out", ir::DType::Float32, outputShape);
  b.op(ir::OpType::Conv2D, {in, w, ir::kNoTensor}, {out}, attrs);
  const auto graph = b.inputs({in}).outputs({out}).build();
  if (auto reason = test::checkReason(graph)) qFatal("check failed: %s", reason->c_str());
  return test::runGraph<float>(graph, {bytesOf(input)});
}

// int8 1x1 convolution, 2x2 input, two output channels with per-channel
// scales 0.25 and 0.5; input scale 0.5 zero point -1; output scale 1 zero
// point 2. Channel multipliers: 0.125 and 0.25.
ir::Graph int8PerChannelGraph(ir::Activation activation) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, 2, 2, 1}, perTensor(0.5f, -1));
  const int w = b.constant("w", ir::DType::Int8, {2, 1, 1, 1}, std::vector<std::int8_t>{3, -2},
                           perChannel({0.25f, 0.5f}, 0));
  const int bias = b.constant("bias", ir::DType::Int32, {2}, std::vector<std::int32_t>{4, -2});
  const int out = b.tensor("out", ir::DType::Int8, {1, 2, 2, 2}, perTensor(1.0f, 2));
  b.op(ir::OpType::Conv2D, {in, w, bias}, {out}, convAttrs(ir::Padding::Valid, 1, 1, activation));
  return b.inputs({in}).outputs({out}).build();
}

// 16x8 1x1 convolution of one pixel with two int16 channels into two output
// channels; scales give the multiplier 0.125. The bias makes both sums ties:
// +-2004 / 8 = +-250.5.
ir::Graph int16Graph(ir::DType biasType) {
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int16, {1, 1, 1, 2}, perTensor(0.5f, 0));
  const int w = b.constant("w", ir::DType::Int8, {2, 1, 1, 2},
                           std::vector<std::int8_t>{3, -2, -3, 2}, perTensor(0.25f, 0));
  int bias;
  if (biasType == ir::DType::Int64) {
    bias = b.constant("bias", ir::DType::Int64, {2}, std::vector<std::int64_t>{6, -6});
  } else {
    bias = b.constant("bias", ir::DType::Int32, {2}, std::vector<std::int32_t>{6, -6});
  }
  const int out = b.tensor("out", ir::DType::Int16, {1, 1, 1, 2}, perTensor(1.0f, 0));
  b.op(ir::OpType::Conv2D, {in, w, bias}, {out}, convAttrs(ir::Padding::Valid));
  return b.inputs({in}).outputs({out}).build();
}

}  // namespace

class Conv2DTest : public QObject {
  Q_OBJECT

 private slots:
  void float32ValidWithBias() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 3, 3, 1});
    const int w = b.constant("w", ir::DType::Float32, {1, 2, 2, 1}, std::vector<float>{1, 2, 3, 4});
    const int bias = b.constant("bias", ir::DType::Float32, {1}, std::vector<float>{1});
    const int out = b.tensor("out", ir::DType::Float32, {1, 2, 2, 1});
    b.op(ir::OpType::Conv2D, {in, w, bias}, {out}, convAttrs(ir::Padding::Valid));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // Input 1..9 in rows of 3. Top-left: 1*1 + 2*2 + 4*3 + 5*4 + 1 = 38, and
    // each step right adds 1+2+3+4 = 10, each step down 3*10 = 30.
    QCOMPARE(test::runGraph<float>(graph, {bytesOf(iota(9, 1))}),
             (std::vector<float>{38, 48, 68, 78}));
  }

  void float32SameStride2PadsOnlyAfter() {
    // 4x4 input (1..16), 3x3 ones, stride 2: output 2x2, total padding 1,
    // which TFLite puts after the input (top/left padding 0). Windows start
    // at rows/columns 0 and 2: 1+2+3+5+6+7+9+10+11 = 54; 3+4+7+8+11+12 = 45;
    // 9+10+11+13+14+15 = 72; 11+12+15+16 = 54.
    const auto result =
        convolveOnes({1, 4, 4, 1}, {1, 2, 2, 1}, 3, convAttrs(ir::Padding::Same, 2), iota(16, 1));
    QCOMPARE(result, (std::vector<float>{54, 45, 72, 54}));
  }

  void float32SameStride1PadsBothSides() {
    // 3x3 input (1..9), 3x3 ones, SAME stride 1: padding 1 on every side, so
    // the corner sums four elements (1+2+4+5 = 12), the centre all nine (45).
    const auto result =
        convolveOnes({1, 3, 3, 1}, {1, 3, 3, 1}, 3, convAttrs(ir::Padding::Same, 1), iota(9, 1));
    QCOMPARE(result, (std::vector<float>{12, 21, 16, 27, 45, 33, 24, 39, 28}));
  }

  void float32Dilation() {
    // 5x5 input in(y, x) = 5y + x, 2x2 ones dilated by 2 (a 3x3 footprint),
    // VALID: out(y, x) = in(y,x) + in(y,x+2) + in(y+2,x) + in(y+2,x+2)
    //                  = 4 * (5y + x) + 24.
    const auto result = convolveOnes({1, 5, 5, 1}, {1, 3, 3, 1}, 2,
                                     convAttrs(ir::Padding::Valid, 1, 2), iota(25, 0));
    QCOMPARE(result, (std::vector<float>{24, 28, 32, 44, 48, 52, 64, 68, 72}));
  }

  void float32Groups() {
    // Four input channels, filter depth 2: two groups. Output channel 0 sees
    // channels 0-1 with weights {1, 1}: 1 + 2 = 3; channel 1 sees channels
    // 2-3 with weights {1, -1}: 3 - 4 = -1.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 1, 1, 4});
    const int w =
        b.constant("w", ir::DType::Float32, {2, 1, 1, 2}, std::vector<float>{1, 1, 1, -1});
    const int out = b.tensor("out", ir::DType::Float32, {1, 1, 1, 2});
    b.op(ir::OpType::Conv2D, {in, w}, {out}, convAttrs(ir::Padding::Valid));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({1, 2, 3, 4})}),
             (std::vector<float>{3, -1}));
  }

  void int8PerChannel() {
    const auto graph = int8PerChannelGraph(ir::Activation::None);
    QVERIFY(!test::checkReason(graph));
    // Input q {3, 7, -1, 15} minus zero point -1: {4, 8, 0, 16}.
    // Channel 0 (w 3, bias 4, x0.125): {16, 28, 4, 52} -> 2, 3.5, 0.5, 6.5
    //   -> rounded away from zero 2, 4, 1, 7 -> + 2 = 4, 6, 3, 9.
    // Channel 1 (w -2, bias -2, x0.25): {-10, -18, -2, -34} -> -2.5, -4.5,
    //   -0.5, -8.5 -> -3, -5, -1, -9 -> + 2 = -1, -3, 1, -7.
    // Output is NHWC: channels interleaved per pixel.
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({3, 7, -1, 15})}),
             (std::vector<std::int8_t>{4, -1, 6, -3, 3, 1, 9, -7}));
  }

  void int8Relu6ClampsToQuantisedRange() {
    // RELU6 with scale 1, zero point 2: clamp to [2, 8].
    const auto graph = int8PerChannelGraph(ir::Activation::Relu6);
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({3, 7, -1, 15})}),
             (std::vector<std::int8_t>{4, 2, 6, 2, 3, 2, 8, 2}));
  }

  void int16x8WithInt64BiasRoundsTiesUp() {
    // Sums: 3*1000 - 2*501 + 6 = 2004 and -2004. The 64-bit requantisation
    // floor(acc/8 + 1/2) rounds both ties up: 250.5 -> 251, -250.5 -> -250.
    const auto graph = int16Graph(ir::DType::Int64);
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({1000, 501})}),
             (std::vector<std::int16_t>{251, -250}));
  }

  void int16x8WithInt32BiasRoundsTiesAway() {
    // Same sums in the 32-bit path: halving gives +-1002 exactly, the
    // rounding shift by 2 rounds +-250.5 away from zero: 251, -251.
    const auto graph = int16Graph(ir::DType::Int32);
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({1000, 501})}),
             (std::vector<std::int16_t>{251, -251}));
  }

  void checkRejectsInt16Filter() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {1, 1, 1, 1}, perTensor(1.0f, 0));
    const int w = b.constant("w", ir::DType::Int16, {1, 1, 1, 1}, std::vector<std::int16_t>{1},
                             perTensor(1.0f, 0));
    const int out = b.tensor("out", ir::DType::Int16, {1, 1, 1, 1}, perTensor(1.0f, 0));
    b.op(ir::OpType::Conv2D, {in, w}, {out}, convAttrs(ir::Padding::Valid));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("input int16, filter int16") != std::string::npos, reason->c_str());
  }

  void checkRejectsScaleCountMismatch() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 1, 1, 1}, perTensor(1.0f, 0));
    const int w = b.constant("w", ir::DType::Int8, {2, 1, 1, 1}, std::vector<std::int8_t>{1, 1},
                             perChannel({0.1f, 0.2f, 0.3f}, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 1, 1, 2}, perTensor(1.0f, 0));
    b.op(ir::OpType::Conv2D, {in, w}, {out}, convAttrs(ir::Padding::Valid));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("3 per-channel scales; expected 1 or 2") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsOutputShapeMismatch() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 4, 4, 1});
    const int w = b.constant("w", ir::DType::Float32, {1, 3, 3, 1}, std::vector<float>(9, 1));
    const int out = b.tensor("out", ir::DType::Float32, {1, 4, 4, 1});
    b.op(ir::OpType::Conv2D, {in, w}, {out}, convAttrs(ir::Padding::Valid));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("expected [1,2,2,1] with VALID padding") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsMissingFilter() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 1, 1, 1});
    const int out = b.tensor("out", ir::DType::Float32, {1, 1, 1, 1});
    b.op(ir::OpType::Conv2D, {in, ir::kNoTensor}, {out}, convAttrs(ir::Padding::Valid));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("missing the filter") != std::string::npos, reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(Conv2DTest)

}  // namespace conv2d_test

#include "conv2d_test.moc"
