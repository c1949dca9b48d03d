// legalize: SAME/VALID become explicit pads equal to TFLite's (odd totals put
// the extra row/column after), PADV2 padding with PAD's own value becomes
// PAD, and no output byte changes.
#include <QtTest>

#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "pass_test_support.h"
#include "passes/legalize.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

// int8 convolution [1,h,w,3] -> [1,oh,ow,4] with a [4,k,k,3] filter.
ir::Graph int8Conv(int h, int w, int k, int stride, ir::Padding padding) {
  const int oh = padding == ir::Padding::Same ? (h + stride - 1) / stride : (h - k) / stride + 1;
  const int ow = padding == ir::Padding::Same ? (w + stride - 1) / stride : (w - k) / stride + 1;
  GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, {1, h, w, 3}, perTensor(0.25f, -7));
  const auto weights = test::filterValues(static_cast<std::size_t>(4 * k * k * 3), 11);
  const int filter = b.constant("w", ir::DType::Int8, {4, k, k, 3}, weights,
                                perChannel({0.02f, 0.03f, 0.01f, 0.05f}, 0));
  const int bias =
      b.constant("bias", ir::DType::Int32, {4}, std::vector<std::int32_t>{10, -20, 300, 0});
  const int out = b.tensor("out", ir::DType::Int8, {1, oh, ow, 4}, perTensor(0.5f, 5));
  ir::Conv2DAttrs attrs;
  attrs.padding = padding;
  attrs.strideH = attrs.strideW = stride;
  b.op(ir::OpType::Conv2D, {in, filter, bias}, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

ir::ExplicitPadding convPadding(const ir::Graph& graph) {
  const auto& attrs = std::get<ir::Conv2DAttrs>(graph.operators.at(0).attributes);
  return attrs.explicitPadding.value_or(ir::ExplicitPadding{-1, -1, -1, -1});
}

ir::Graph padV2Graph(ir::DType dtype, std::vector<std::uint8_t> valueBytes) {
  GraphBuilder b;
  const auto quant = dtype == ir::DType::Int8 ? perTensor(0.1f, -3) : ir::Quantization{};
  const int in = b.tensor("in", dtype, {1, 2, 2, 1}, quant);
  const int pads = b.constant("pads", ir::DType::Int32, {4, 2},
                              std::vector<std::int32_t>{0, 0, 1, 0, 0, 2, 0, 0});
  const int value = b.constant("value", dtype, {}, valueBytes, quant);
  const int out = b.tensor("out", dtype, {1, 3, 4, 1}, quant);
  b.op(ir::OpType::PadV2, {in, pads, value}, {out});
  return b.inputs({in}).outputs({out}).build();
}

template <typename T>
std::vector<std::uint8_t> bytesOfValue(T value) {
  std::vector<std::uint8_t> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

}  // namespace

class Legalize : public QObject {
  Q_OBJECT

 private slots:
  // TFLite's SAME: total = (out - 1) * stride + k - in, before = total / 2,
  // after = total - before.
  void samePaddingBecomesTfliteExplicitPads_data() {
    QTest::addColumn<int>("height");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("kernel");
    QTest::addColumn<int>("stride");
    QTest::addColumn<int>("top");
    QTest::addColumn<int>("bottom");
    QTest::addColumn<int>("left");
    QTest::addColumn<int>("right");
    QTest::newRow("even totals: 5x5, 3x3, stride 1") << 5 << 5 << 3 << 1 << 1 << 1 << 1 << 1;
    QTest::newRow("odd totals: 6x8, 3x3, stride 2") << 6 << 8 << 3 << 2 << 0 << 1 << 0 << 1;
    QTest::newRow("mixed: 5x6, 3x3, stride 2") << 5 << 6 << 3 << 2 << 1 << 1 << 0 << 1;
    QTest::newRow("4x4 kernel, stride 1: 3 = 1 + 2") << 7 << 7 << 4 << 1 << 1 << 2 << 1 << 2;
    QTest::newRow("negative total clips to 0: 4x4, 1x1, stride 2")
        << 4 << 4 << 1 << 2 << 0 << 0 << 0 << 0;
  }
  void samePaddingBecomesTfliteExplicitPads() {
    QFETCH(int, height);
    QFETCH(int, width);
    QFETCH(int, kernel);
    QFETCH(int, stride);
    QFETCH(int, top);
    QFETCH(int, bottom);
    QFETCH(int, left);
    QFETCH(int, right);
    const auto graph = int8Conv(height, width, kernel, stride, ir::Padding::Same);
    const auto legal = test::runPass(passes::legalize, graph);
    QCOMPARE(convPadding(legal), (ir::ExplicitPadding{top, bottom, left, right}));
    QVERIFY(test::sameOutputs(graph, legal));
  }

  void validPaddingBecomesZeroPads() {
    const auto graph = int8Conv(7, 6, 3, 2, ir::Padding::Valid);
    const auto legal = test::runPass(passes::legalize, graph);
    QCOMPARE(convPadding(legal), (ir::ExplicitPadding{0, 0, 0, 0}));
    QVERIFY(test::sameOutputs(graph, legal));
  }

  void depthwiseAndPoolsAreLegalisedToo() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 6, 5, 2}, perTensor(0.3f, 4));
    const int filter = b.constant("w", ir::DType::Int8, {1, 3, 3, 2}, test::filterValues(18, 5),
                                  perChannel({0.01f, 0.02f}, 3));
    const int dw = b.tensor("dw", ir::DType::Int8, {1, 3, 3, 2}, perTensor(0.2f, -1));
    const int avg = b.tensor("avg", ir::DType::Int8, {1, 2, 2, 2}, perTensor(0.2f, -1));
    const int max = b.tensor("max", ir::DType::Int8, {1, 1, 1, 2}, perTensor(0.2f, -1));
    ir::DepthwiseConv2DAttrs depthwise;
    depthwise.strideH = depthwise.strideW = 2;
    b.op(ir::OpType::DepthwiseConv2D, {in, filter, ir::kNoTensor}, {dw}, depthwise);
    b.op(ir::OpType::AveragePool2D, {dw}, {avg}, test::poolAttributes(ir::Padding::Same, 2, 2));
    b.op(ir::OpType::MaxPool2D, {avg}, {max}, test::poolAttributes(ir::Padding::Valid, 2, 2));
    const auto graph = b.inputs({in}).outputs({max, dw}).build();
    passes::PassContext context;
    const auto legal = passes::legalize(graph, context);
    // Depthwise 6x5, 3x3, stride 2: totals 1 and 2; average pool 3x3 -> 2x2
    // with a 2x2 window, stride 2: totals 1 and 1; VALID max pool: none.
    const ir::ExplicitPadding none{-1, -1, -1, -1};
    QCOMPARE(std::get<ir::DepthwiseConv2DAttrs>(legal.operators[0].attributes)
                 .explicitPadding.value_or(none),
             (ir::ExplicitPadding{0, 1, 1, 1}));
    QCOMPARE(
        std::get<ir::Pool2DAttrs>(legal.operators[1].attributes).explicitPadding.value_or(none),
        (ir::ExplicitPadding{0, 1, 0, 1}));
    QCOMPARE(
        std::get<ir::Pool2DAttrs>(legal.operators[2].attributes).explicitPadding.value_or(none),
        (ir::ExplicitPadding{0, 0, 0, 0}));
    QVERIFY(test::sameOutputs(graph, legal));
    QCOMPARE(context.remarks, std::vector<std::string>{
                                  "3 convolution/pooling operators now carry explicit padding"});
    // Idempotent.
    QCOMPARE(ir::printGraph(test::runPass(passes::legalize, legal)), ir::printGraph(legal));
  }

  void padV2WithPadsOwnValueBecomesPad_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("becomesPad");
    const auto bytes = [](std::vector<std::uint8_t> v) {
      return QByteArray(reinterpret_cast<const char*>(v.data()), static_cast<int>(v.size()));
    };
    const int int8 = static_cast<int>(ir::DType::Int8);
    const int f32 = static_cast<int>(ir::DType::Float32);
    QTest::newRow("int8, the zero point") << int8 << bytes(bytesOfValue<std::int8_t>(-3)) << true;
    QTest::newRow("int8, 0 (not the zero point)")
        << int8 << bytes(bytesOfValue<std::int8_t>(0)) << false;
    QTest::newRow("float, +0.0") << f32 << bytes(bytesOfValue(0.0f)) << true;
    QTest::newRow("float, -0.0 (other bits)") << f32 << bytes(bytesOfValue(-0.0f)) << false;
    QTest::newRow("float, 1.5") << f32 << bytes(bytesOfValue(1.5f)) << false;
  }
  void padV2WithPadsOwnValueBecomesPad() {
    QFETCH(int, dtype);
    QFETCH(QByteArray, value);
    QFETCH(bool, becomesPad);
    const auto graph = padV2Graph(static_cast<ir::DType>(dtype),
                                  std::vector<std::uint8_t>(value.begin(), value.end()));
    const auto legal = test::runPass(passes::legalize, graph);
    QCOMPARE(legal.operators[0].type, becomesPad ? ir::OpType::Pad : ir::OpType::PadV2);
    QCOMPARE(legal.operators[0].inputs.size(), std::size_t{becomesPad ? 2u : 3u});
    QVERIFY(test::sameOutputs(graph, legal));
  }
};

QTEST_APPLESS_MAIN(Legalize)
#include "legalize_test.moc"
