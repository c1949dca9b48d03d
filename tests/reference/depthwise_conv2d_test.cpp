// DEPTHWISE_CONV_2D reference kernel: depth multiplier channel order, SAME
// padding, dilation, int8 per-channel requantisation (dimension 3) including
// TFLite's double rounding, 16x8 with int64 bias, check reasons.
#include <QtTest>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace depthwise_conv2d_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

ir::DepthwiseConv2DAttrs dwAttrs(ir::Padding padding, int depthMultiplier, int dilation = 1) {
  ir::DepthwiseConv2DAttrs attrs;
  attrs.padding = padding;
  attrs.depthMultiplier = depthMultiplier;
  attrs.dilationH = attrs.dilationW = dilation;
  return attrs;
}

}  // namespace

class DepthwiseConv2DTest : public QObject {
  Q_OBJECT

 private slots:
  void float32DepthMultiplierOrdersChannels() {
    // Two input channels, multiplier 2: output channel m + 2c uses input c.
    // Filter per position (0,0) (0,1) (1,0) (1,1): oc0 1s, oc1 2s, oc2 1s,
    // oc3 1 at (0,0) only. Input c0 = 1,2,3,4 (sum 10), c1 = 10..40 (100).
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 2, 2, 2});
    const int w = b.constant("w", ir::DType::Float32, {1, 2, 2, 4},
                             std::vector<float>{1, 2, 1, 1, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0});
    const int bias =
        b.constant("bias", ir::DType::Float32, {4}, std::vector<float>{0.5f, 0, 0, -1});
    const int out = b.tensor("out", ir::DType::Float32, {1, 1, 1, 4});
    b.op(ir::OpType::DepthwiseConv2D, {in, w, bias}, {out}, dwAttrs(ir::Padding::Valid, 2));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // {10 + 0.5, 2 * 10, 100, 10 - 1}.
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({1, 10, 2, 20, 3, 30, 4, 40})}),
             (std::vector<float>{10.5f, 20, 100, 9}));
  }

  void float32Dilation() {
    // 3x3 input 1..9, 2x2 ones dilated by 2: the four corners 1+3+7+9 = 20.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 3, 3, 1});
    const int w = b.constant("w", ir::DType::Float32, {1, 2, 2, 1}, std::vector<float>(4, 1));
    const int out = b.tensor("out", ir::DType::Float32, {1, 1, 1, 1});
    b.op(ir::OpType::DepthwiseConv2D, {in, w}, {out}, dwAttrs(ir::Padding::Valid, 1, 2));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<float>(graph, {bytesOf<float>({1, 2, 3, 4, 5, 6, 7, 8, 9})}),
             (std::vector<float>{20}));
  }

  void int8PerChannelSamePadding() {
    // 2x2 input, scale 1, zero point 1; multiplier 2; 2x2 filter with scales
    // 0.5 (oc0, all 1) and 0.25 (oc1: 1, -1, -1, 1); output scale 1, zero
    // point -3; SAME stride 1 pads one row/column after the input.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 2, 2, 1}, perTensor(1.0f, 1));
    const int w = b.constant("w", ir::DType::Int8, {1, 2, 2, 2},
                             std::vector<std::int8_t>{1, 1, 1, -1, 1, -1, 1, 1},
                             perChannel({0.5f, 0.25f}, 3));
    const int bias = b.constant("bias", ir::DType::Int32, {2}, std::vector<std::int32_t>{1, 3});
    const int out = b.tensor("out", ir::DType::Int8, {1, 2, 2, 2}, perTensor(1.0f, -3));
    b.op(ir::OpType::DepthwiseConv2D, {in, w, bias}, {out}, dwAttrs(ir::Padding::Same, 2));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    // Input q {5, 3, 1, -1} minus 1: {4, 2, 0, -2}. Clipped window sums plus
    // bias: oc0 {5, 1, -1, -1}, oc1 {3, 7, 5, 1}.
    // oc0 x0.5 is one doubling high multiply: 2.5 -> 3, 0.5 -> 1, and
    //   -0.5 -> 0 (negative ties go toward zero there) -> + -3: 0, -2, -3, -3.
    // oc1 x0.25 halves (rounding) then halves again (rounding): 3 -> 2 -> 1,
    //   7 -> 4 -> 2, 5 -> 3 -> 2 (1.25 gives 2), 1 -> 1 -> 1 -> -2, -1, -1, -2.
    QCOMPARE(test::runGraph<std::int8_t>(graph, {bytesOf<std::int8_t>({5, 3, 1, -1})}),
             (std::vector<std::int8_t>{0, -2, -2, -1, -3, -1, -3, -2}));
  }

  void int16x8WithInt64Bias() {
    // 3 * 1001 + 1 = 3004, x0.125 = 375.5 -> floor(375.5 + 0.5) = 376.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {1, 1, 1, 1}, perTensor(0.5f, 0));
    const int w = b.constant("w", ir::DType::Int8, {1, 1, 1, 1}, std::vector<std::int8_t>{3},
                             perTensor(0.25f, 0));
    const int bias = b.constant("bias", ir::DType::Int64, {1}, std::vector<std::int64_t>{1});
    const int out = b.tensor("out", ir::DType::Int16, {1, 1, 1, 1}, perTensor(1.0f, 0));
    b.op(ir::OpType::DepthwiseConv2D, {in, w, bias}, {out}, dwAttrs(ir::Padding::Valid, 1));
    const auto graph = b.inputs({in}).outputs({out}).build();
    QVERIFY(!test::checkReason(graph));
    QCOMPARE(test::runGraph<std::int16_t>(graph, {bytesOf<std::int16_t>({1001})}),
             (std::vector<std::int16_t>{376}));
  }

  void checkRejectsInt16WithInt32Bias() {
    // TFLite Micro reads a 16x8 depthwise bias as int64 only.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {1, 1, 1, 1}, perTensor(0.5f, 0));
    const int w = b.constant("w", ir::DType::Int8, {1, 1, 1, 1}, std::vector<std::int8_t>{3},
                             perTensor(0.25f, 0));
    const int bias = b.constant("bias", ir::DType::Int32, {1}, std::vector<std::int32_t>{1});
    const int out = b.tensor("out", ir::DType::Int16, {1, 1, 1, 1}, perTensor(1.0f, 0));
    b.op(ir::OpType::DepthwiseConv2D, {in, w, bias}, {out}, dwAttrs(ir::Padding::Valid, 1));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("bias int32") != std::string::npos &&
                 reason->find("int64 bias") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsDepthMultiplierMismatch() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 1, 1, 2});
    const int w = b.constant("w", ir::DType::Float32, {1, 1, 1, 4}, std::vector<float>(4, 1));
    const int out = b.tensor("out", ir::DType::Float32, {1, 1, 1, 4});
    b.op(ir::OpType::DepthwiseConv2D, {in, w}, {out}, dwAttrs(ir::Padding::Valid, 3));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("expected input depth 2 x depth multiplier 3") != std::string::npos,
             reason->c_str());
  }

  void checkRejectsPerChannelAlongWrongDimension() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 1, 1, 2}, perTensor(1.0f, 0));
    const int w = b.constant("w", ir::DType::Int8, {1, 1, 1, 2}, std::vector<std::int8_t>{1, 1},
                             perChannel({0.5f, 0.25f}, 0));
    const int out = b.tensor("out", ir::DType::Int8, {1, 1, 1, 2}, perTensor(1.0f, 0));
    b.op(ir::OpType::DepthwiseConv2D, {in, w}, {out}, dwAttrs(ir::Padding::Valid, 1));
    const auto reason = test::checkReason(b.build());
    QVERIFY(reason);
    QVERIFY2(reason->find("quantised along dimension 0; expected dimension 3") != std::string::npos,
             reason->c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(DepthwiseConv2DTest)

}  // namespace depthwise_conv2d_test

#include "depthwise_conv2d_test.moc"
