// Explicit padding in the reference kernels (CONV_2D, DEPTHWISE_CONV_2D,
// AVERAGE_POOL_2D, MAX_POOL_2D): explicit pads equal to SAME's give the same
// bytes as SAME; asymmetric pads place the windows where they say (hand-
// computed values); the checks derive the output shape from the pads and
// refuse negative ones.
#include <QtTest>

#include <numeric>

#include "graph_builder.h"
#include "op_graphs.h"
#include "reference/quantized_params.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace explicit_padding_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

std::vector<float> iota(int count, float first) {
  std::vector<float> values(static_cast<std::size_t>(count));
  std::iota(values.begin(), values.end(), first);
  return values;
}

// Float convolution of a [1,h,w,1] input with a [1,k,k,1] filter of ones.
ir::Graph onesConv(ir::Shape in, ir::Shape out, int k, ir::Conv2DAttrs attrs) {
  GraphBuilder b;
  const int i = b.tensor("in", ir::DType::Float32, in);
  const int w = b.constant("w", ir::DType::Float32, {1, k, k, 1},
                           std::vector<float>(static_cast<std::size_t>(k * k), 1.0f));
  const int o = b.tensor("out", ir::DType::Float32, out);
  b.op(ir::OpType::Conv2D, {i, w, ir::kNoTensor}, {o}, attrs);
  return b.inputs({i}).outputs({o}).build();
}

// int8 depthwise 3x3 over [1,5,6,2], per-channel weights.
ir::Graph int8Depthwise(ir::DepthwiseConv2DAttrs attrs, ir::Shape out) {
  GraphBuilder b;
  const int i = b.tensor("in", ir::DType::Int8, {1, 5, 6, 2}, perTensor(0.5f, 3));
  std::vector<std::int8_t> weights(18);
  for (std::size_t k = 0; k < weights.size(); ++k)
    weights[k] = static_cast<std::int8_t>(static_cast<int>(k * 7 % 19) - 9);
  const int w =
      b.constant("w", ir::DType::Int8, {1, 3, 3, 2}, weights, perChannel({0.1f, 0.2f}, 3));
  const int bias = b.constant("bias", ir::DType::Int32, {2}, std::vector<std::int32_t>{5, -7});
  const int o = b.tensor("out", ir::DType::Int8, out, perTensor(0.7f, -4));
  b.op(ir::OpType::DepthwiseConv2D, {i, w, bias}, {o}, attrs);
  return b.inputs({i}).outputs({o}).build();
}

std::vector<std::uint8_t> rampInt8(std::size_t count) {
  std::vector<std::uint8_t> bytes(count);
  for (std::size_t k = 0; k < count; ++k) bytes[k] = static_cast<std::uint8_t>(k * 37 + 11);
  return bytes;
}

}  // namespace

class ExplicitPadding : public QObject {
  Q_OBJECT

 private slots:
  // 5x6 input, 3x3 filter: stride 1 pads 2/2 both ways; stride 2 pads 2
  // rows and 1 column (odd: after); stride 3 pads 1 row (after), no columns.
  void explicitPadsEqualToSameGiveSameBytes_data() {
    QTest::addColumn<int>("stride");
    QTest::newRow("stride 1") << 1;
    QTest::newRow("stride 2") << 2;
    QTest::newRow("stride 3") << 3;
  }
  void explicitPadsEqualToSameGiveSameBytes() {
    QFETCH(int, stride);
    ir::DepthwiseConv2DAttrs same;
    same.padding = ir::Padding::Same;
    same.strideH = same.strideW = stride;
    const auto g = reference::computeWindowGeometry(ir::Padding::Same, 5, 6, 3, 3, stride, stride);
    ir::DepthwiseConv2DAttrs spelled = same;
    spelled.padding = ir::Padding::Valid;  // overridden by the explicit pads
    spelled.explicitPadding = reference::explicitPaddingOf(g);
    const ir::Shape out = {1, g.outHeight, g.outWidth, 2};
    const auto a = int8Depthwise(same, out);
    const auto b = int8Depthwise(spelled, out);
    QCOMPARE(test::checkMessage(a), std::string());
    QCOMPARE(test::checkMessage(b), std::string());
    const auto input = rampInt8(60);
    QCOMPARE(test::runGraph<std::int8_t>(b, {input}), test::runGraph<std::int8_t>(a, {input}));
  }

  void asymmetricPadsPlaceTheWindows() {
    // 3x3 input 1..9, 2x2 ones filter, stride 1, explicit t=1 b=0 l=0 r=1:
    // output 3x3; row 0 sees only input row 0 (padded row above).
    ir::Conv2DAttrs attrs;
    attrs.explicitPadding = ir::ExplicitPadding{1, 0, 0, 1};
    const auto graph = onesConv({1, 3, 3, 1}, {1, 3, 3, 1}, 2, attrs);
    QCOMPARE(test::checkMessage(graph), std::string());
    const auto out = test::runGraph<float>(graph, {bytesOf(iota(9, 1.0f))});
    // Rows: [1+2, 2+3, 3], [1+2+4+5, 2+3+5+6, 3+6], [4+5+7+8, 5+6+8+9, 6+9]
    QCOMPARE(out, (std::vector<float>{3, 5, 3, 12, 16, 9, 24, 28, 15}));
  }

  void poolsClipWindowsToExplicitPads() {
    // 4x4 ramp, 3x3 average and max pools, stride 2, pads t=0 b=1 l=1 r=0:
    // out 2x2; windows rows {0..2},{2..3}, columns {0..1},{1..3}.
    auto attrs = test::poolAttrs(ir::Padding::Same, 3, 3, 2);
    attrs.explicitPadding = ir::ExplicitPadding{0, 1, 1, 0};
    const auto average = test::poolOpGraph(ir::OpType::AveragePool2D, ir::DType::Float32,
                                           {1, 4, 4, 1}, {1, 2, 2, 1}, attrs, {});
    const auto max = test::poolOpGraph(ir::OpType::MaxPool2D, ir::DType::Float32, {1, 4, 4, 1},
                                       {1, 2, 2, 1}, attrs, {});
    QCOMPARE(test::checkMessage(average), std::string());
    const auto input = bytesOf(iota(16, 0.0f));
    // Window (0,0): rows 0-2, cols 0-1 -> {0,1,4,5,8,9}; (0,1): rows 0-2,
    // cols 1-3; (1,0): rows 2-3, cols 0-1; (1,1): rows 2-3, cols 1-3.
    QCOMPARE(test::runGraph<float>(average, {input}),
             (std::vector<float>{27.0f / 6, 54.0f / 9, 42.0f / 4, 72.0f / 6}));
    QCOMPARE(test::runGraph<float>(max, {input}), (std::vector<float>{9, 11, 13, 15}));
  }

  void checkDerivesTheOutputShapeFromThePads() {
    ir::Conv2DAttrs attrs;
    attrs.explicitPadding = ir::ExplicitPadding{1, 0, 0, 1};
    // 3 rows + 1 padded with a 2-row filter give 3 output rows, not 4.
    const auto wrong = onesConv({1, 3, 3, 1}, {1, 4, 3, 1}, 2, attrs);
    QVERIFY(test::checkMessage(wrong).find("explicit(t=1,b=0,l=0,r=1)") != std::string::npos);
    attrs.explicitPadding = ir::ExplicitPadding{0, 0, -1, 0};
    const auto negative = onesConv({1, 3, 3, 1}, {1, 2, 1, 1}, 2, attrs);
    QVERIFY(test::checkMessage(negative).find("negative") != std::string::npos);
  }

  void explicitGeometryMatchesWindowOutputSize() {
    // (in + t + b - effective) / stride + 1, with dilation.
    const auto g =
        reference::computeWindowGeometry(ir::ExplicitPadding{2, 1, 0, 3}, 7, 5, 3, 2, 2, 1, 2, 3);
    QCOMPARE(g.outHeight, (7 + 3 - 5) / 2 + 1);
    QCOMPARE(g.outWidth, (5 + 3 - 4) / 1 + 1);
    QCOMPARE(g.padHeight, 2);
    QCOMPARE(g.padWidth, 0);
    QCOMPARE(reference::explicitPaddingOf(g), (ir::ExplicitPadding{2, 1, 0, 3}));
  }
};

LOUPE_TEST_APPLESS_MAIN(ExplicitPadding)

}  // namespace explicit_padding_test

#include "explicit_padding_test.moc"
