// fuse_operators: each rule fires exactly when the fused operator computes
// the same bytes, and not otherwise:
//   RELU/RELU6 into CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED only with
//   identical quantisation, a single reader and no model output in between;
//   PAD/PADV2 into a convolution's explicit padding only when the pad value
//   is what a skipped tap stands for, only H and W are padded and the PAD
//   feeds nothing else; views for no-copy shape operators.
#include <QtTest>

#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "pass_test_support.h"
#include "passes/fuse_operators.h"
#include "passes/legalize.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perChannel;
using loupe::test::perTensor;

namespace {

const ir::Quantization kConvOut = perTensor(0.5f, 5);

// An int8 3x3 VALID convolution (stride 1, 4 output channels) from `in`.
int addConv(GraphBuilder& b, int in, ir::Shape outShape, ir::Quantization outQuant,
            ir::Activation activation = ir::Activation::None, int channels = 3) {
  const auto weights = test::filterValues(static_cast<std::size_t>(4 * 9 * channels), 3);
  const int filter = b.constant("w", ir::DType::Int8, {4, 3, 3, channels}, weights,
                                perChannel({0.02f, 0.03f, 0.01f, 0.05f}, 0));
  const int bias =
      b.constant("bias", ir::DType::Int32, {4}, std::vector<std::int32_t>{10, -20, 300, 0});
  const int out = b.tensor("conv", ir::DType::Int8, outShape, outQuant);
  ir::Conv2DAttrs attrs;
  attrs.padding = ir::Padding::Valid;
  attrs.activation = activation;
  b.op(ir::OpType::Conv2D, {in, filter, bias}, {out}, attrs);
  return out;
}

struct ReluCase {
  ir::Graph graph;
  int producerOutput = -1;
  int activationOutput = -1;
};

// in [1,5,5,3] -> CONV_2D -> [1,3,3,4] -> activation -> [1,3,3,4].
ReluCase convThenActivation(ir::OpType activation, ir::Quantization activationOut,
                            ir::Activation convActivation = ir::Activation::None) {
  GraphBuilder b;
  ReluCase c;
  const int in = b.tensor("in", ir::DType::Int8, {1, 5, 5, 3}, perTensor(0.25f, -7));
  c.producerOutput = addConv(b, in, {1, 3, 3, 4}, kConvOut, convActivation);
  c.activationOutput = b.tensor("act", ir::DType::Int8, {1, 3, 3, 4}, activationOut);
  b.op(activation, {c.producerOutput}, {c.activationOutput});
  c.graph = b.inputs({in}).outputs({c.activationOutput}).build();
  return c;
}

ir::Activation activationOf(const ir::Operator& op) {
  if (const auto* a = std::get_if<ir::Conv2DAttrs>(&op.attributes)) return a->activation;
  if (const auto* a = std::get_if<ir::DepthwiseConv2DAttrs>(&op.attributes)) return a->activation;
  return std::get<ir::FullyConnectedAttrs>(op.attributes).activation;
}

ir::ExplicitPadding paddingOf(const ir::Operator& op) {
  const ir::ExplicitPadding none{-1, -1, -1, -1};
  if (const auto* a = std::get_if<ir::Conv2DAttrs>(&op.attributes)) {
    return a->explicitPadding.value_or(none);
  }
  return std::get<ir::DepthwiseConv2DAttrs>(op.attributes).explicitPadding.value_or(none);
}

struct PadCase {
  ir::Graph graph;
  int source = -1, padded = -1, conv = -1;
};

// in [1,5,5,3] int8 q(0.25, -7) -> PAD(V2) pads -> 3x3 VALID CONV_2D.
// `value` is PADV2's constant value (none: PAD).
PadCase padThenConv(std::vector<std::int32_t> pads, std::optional<std::int8_t> value,
                    ir::Quantization padOut = perTensor(0.25f, -7)) {
  GraphBuilder b;
  PadCase c;
  const auto quant = perTensor(0.25f, -7);
  c.source = b.tensor("in", ir::DType::Int8, {1, 5, 5, 3}, quant);
  const int paddings = b.constant("paddings", ir::DType::Int32, {4, 2}, pads);
  const ir::Shape paddedShape = {1 + pads[0] + pads[1], 5 + pads[2] + pads[3],
                                 5 + pads[4] + pads[5], 3 + pads[6] + pads[7]};
  c.padded = b.tensor("padded", ir::DType::Int8, paddedShape, padOut);
  if (value) {
    const int v =
        b.constant("value", ir::DType::Int8, {}, std::vector<std::int8_t>{*value}, padOut);
    b.op(ir::OpType::PadV2, {c.source, paddings, v}, {c.padded});
  } else {
    b.op(ir::OpType::Pad, {c.source, paddings}, {c.padded});
  }
  c.conv = addConv(b, c.padded, {paddedShape[0], paddedShape[1] - 2, paddedShape[2] - 2, 4},
                   kConvOut, ir::Activation::None, paddedShape[3]);
  c.graph = b.inputs({c.source}).outputs({c.conv}).build();
  return c;
}

}  // namespace

class FuseOperators : public QObject {
  Q_OBJECT

 private slots:
  // --- RELU / RELU6 ---------------------------------------------------------

  void activationFusesOnlyWithIdenticalQuantisation_data() {
    QTest::addColumn<int>("activation");
    QTest::addColumn<float>("scale");
    QTest::addColumn<int>("zeroPoint");
    QTest::addColumn<int>("convActivation");
    QTest::addColumn<bool>("fuses");
    QTest::addColumn<int>("fused");
    const int relu = static_cast<int>(ir::OpType::Relu);
    const int relu6 = static_cast<int>(ir::OpType::Relu6);
    const int none = static_cast<int>(ir::Activation::None);
    const int r = static_cast<int>(ir::Activation::Relu);
    const int r6 = static_cast<int>(ir::Activation::Relu6);
    const int n1 = static_cast<int>(ir::Activation::ReluN1To1);
    QTest::newRow("RELU, same quantisation") << relu << 0.5f << 5 << none << true << r;
    QTest::newRow("RELU6, same quantisation") << relu6 << 0.5f << 5 << none << true << r6;
    QTest::newRow("RELU after fused RELU") << relu << 0.5f << 5 << r << true << r;
    QTest::newRow("RELU after fused RELU6") << relu << 0.5f << 5 << r6 << true << r6;
    QTest::newRow("RELU6 after fused RELU") << relu6 << 0.5f << 5 << r << true << r6;
    QTest::newRow("RELU after RELU_N1_TO_1") << relu << 0.5f << 5 << n1 << false << n1;
    QTest::newRow("RELU, other output scale") << relu << 0.25f << 5 << none << false << none;
    QTest::newRow("RELU, other zero point") << relu << 0.5f << 6 << none << false << none;
    QTest::newRow("RELU6, other output scale") << relu6 << 0.4f << 5 << none << false << none;
  }
  void activationFusesOnlyWithIdenticalQuantisation() {
    QFETCH(int, activation);
    QFETCH(float, scale);
    QFETCH(int, zeroPoint);
    QFETCH(int, convActivation);
    QFETCH(bool, fuses);
    QFETCH(int, fused);
    const auto c =
        convThenActivation(static_cast<ir::OpType>(activation), perTensor(scale, zeroPoint),
                           static_cast<ir::Activation>(convActivation));
    passes::PassContext context;
    const auto after = passes::fuseOperators(c.graph, context);
    QVERIFY(test::sameOutputs(c.graph, after));
    QCOMPARE(after.operators.size(), std::size_t{fuses ? 1u : 2u});
    QCOMPARE(activationOf(after.operators[0]), static_cast<ir::Activation>(fused));
    if (fuses) {
      QCOMPARE(after.operators[0].outputs, std::vector<int>{c.activationOutput});
      QCOMPARE(after.operators[0].sourceOperators, (std::vector<int>{0, 1}));
      QCOMPARE(context.remarks.size(), std::size_t{1});
      QVERIFY2(context.remarks[0].find(" folded into CONV_2D #0 as fused activation ") !=
                   std::string::npos,
               context.remarks[0].c_str());
    } else {
      QVERIFY(context.remarks.empty());
    }
  }

  void activationNeedsASingleReaderAndNoModelOutputBetween() {
    {
      auto c = convThenActivation(ir::OpType::Relu, kConvOut);
      c.graph.outputs.push_back(c.producerOutput);
      QCOMPARE(test::runPass(passes::fuseOperators, c.graph).operators.size(), std::size_t{2});
    }
    {
      auto c = convThenActivation(ir::OpType::Relu, kConvOut);
      // A second reader of the convolution's output.
      ir::Operator other = c.graph.operators[1];
      other.index = 2;
      const int extra = static_cast<int>(c.graph.tensors.size());
      ir::Tensor t = c.graph.tensor(c.activationOutput);
      t.index = extra;
      t.name = "other";
      c.graph.tensors.push_back(t);
      other.outputs = {extra};
      c.graph.operators.push_back(other);
      c.graph.outputs.push_back(extra);
      const auto after = test::runPass(passes::fuseOperators, c.graph);
      QCOMPARE(after.operators.size(), std::size_t{3});
      QVERIFY(test::sameOutputs(c.graph, after));
    }
  }

  void activationFusesIntoDepthwiseAndFullyConnected() {
    // int16 (16x8) FULLY_CONNECTED + RELU6 and float DEPTHWISE_CONV_2D + RELU.
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Int16, {2, 6}, perTensor(0.01f, 0));
      const int w =
          b.constant("w", ir::DType::Int8, {3, 6}, test::filterValues(18, 9), perTensor(0.02f, 0));
      const int bias =
          b.constant("bias", ir::DType::Int64, {3}, std::vector<std::int64_t>{1000, -400, 0});
      const int fc = b.tensor("fc", ir::DType::Int16, {2, 3}, perTensor(0.001f, 0));
      const int act = b.tensor("act", ir::DType::Int16, {2, 3}, perTensor(0.001f, 0));
      b.op(ir::OpType::FullyConnected, {in, w, bias}, {fc}, ir::FullyConnectedAttrs{});
      b.op(ir::OpType::Relu6, {fc}, {act});
      const auto graph = b.inputs({in}).outputs({act}).build();
      QCOMPARE(test::checkMessages(graph), std::string());
      const auto after = test::runPass(passes::fuseOperators, graph);
      QCOMPARE(after.operators.size(), std::size_t{1});
      QCOMPARE(activationOf(after.operators[0]), ir::Activation::Relu6);
      QVERIFY(test::sameOutputs(graph, after, 32));
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {1, 4, 4, 2});
      std::vector<float> weights(18);
      for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = 0.25f * (int(i % 7) - 3);
      const int w = b.constant("w", ir::DType::Float32, {1, 3, 3, 2}, weights);
      const int dw = b.tensor("dw", ir::DType::Float32, {1, 4, 4, 2});
      const int act = b.tensor("act", ir::DType::Float32, {1, 4, 4, 2});
      b.op(ir::OpType::DepthwiseConv2D, {in, w, ir::kNoTensor}, {dw}, ir::DepthwiseConv2DAttrs{});
      b.op(ir::OpType::Relu, {dw}, {act});
      const auto graph = b.inputs({in}).outputs({act}).build();
      const auto after = test::runPass(passes::fuseOperators, graph);
      QCOMPARE(after.operators.size(), std::size_t{1});
      QCOMPARE(activationOf(after.operators[0]), ir::Activation::Relu);
      QVERIFY(test::sameOutputs(graph, after));
    }
  }

  // --- PAD / PADV2 ------------------------------------------------------------

  void padFusesOnlyWithTheZeroPointAsValue_data() {
    QTest::addColumn<int>("value");  // -1000: PAD without a value
    QTest::addColumn<bool>("fuses");
    QTest::newRow("PAD (pads int8 with the zero point)") << -1000 << true;
    QTest::newRow("PADV2 with the zero point -7") << -7 << true;
    QTest::newRow("PADV2 with 0") << 0 << false;
    QTest::newRow("PADV2 with -128") << -128 << false;
  }
  void padFusesOnlyWithTheZeroPointAsValue() {
    QFETCH(int, value);
    QFETCH(bool, fuses);
    const auto c =
        padThenConv({0, 0, 1, 2, 0, 1, 0, 0},
                    value == -1000 ? std::nullopt : std::optional<std::int8_t>(std::int8_t(value)));
    QCOMPARE(test::checkMessages(c.graph), std::string());
    passes::PassContext context;
    const auto after = passes::fuseOperators(c.graph, context);
    QVERIFY(test::sameOutputs(c.graph, after));
    if (!fuses) {
      QCOMPARE(after.operators.size(), std::size_t{2});
      return;
    }
    QCOMPARE(after.operators.size(), std::size_t{1});
    const ir::Operator& conv = after.operators[0];
    QCOMPARE(conv.inputs[0], c.source);
    QCOMPARE(paddingOf(conv), (ir::ExplicitPadding{1, 2, 0, 1}));
    QCOMPARE(conv.sourceOperators, (std::vector<int>{0, 1}));
    QVERIFY2(ir::printGraph(after).find("padding=explicit(t=1,b=2,l=0,r=1)") != std::string::npos,
             ir::printGraph(after).c_str());
    QVERIFY2(ir::printGraph(after).find("fused from #0,#1") != std::string::npos,
             ir::printGraph(after).c_str());
    QCOMPARE(context.remarks.size(), std::size_t{1});
  }

  void padMustPadOnlyHeightAndWidth() {
    const auto channels = padThenConv({0, 0, 1, 1, 1, 1, 1, 0}, std::nullopt);
    QCOMPARE(test::checkMessages(channels.graph), std::string());
    QCOMPARE(test::runPass(passes::fuseOperators, channels.graph).operators.size(), std::size_t{2});
  }

  void padMustKeepItsQuantisationAndFeedOnlyTheConvolution() {
    {
      const auto requantised =
          padThenConv({0, 0, 1, 1, 1, 1, 0, 0}, std::nullopt, perTensor(0.5f, -7));
      QCOMPARE(test::runPass(passes::fuseOperators, requantised.graph).operators.size(),
               std::size_t{2});
    }
    {
      auto c = padThenConv({0, 0, 1, 1, 1, 1, 0, 0}, std::nullopt);
      c.graph.outputs.push_back(c.padded);
      QCOMPARE(test::runPass(passes::fuseOperators, c.graph).operators.size(), std::size_t{2});
    }
  }

  void padAddsToTheConvolutionsOwnSamePadding() {
    // in [1,5,5,2] -> PAD H(1,0) W(2,1) -> [1,6,8,2] -> 3x3 depthwise SAME
    // stride 2 -> [1,3,4,2]. SAME on 6x8 pads H (0,1) and W (0,1); together
    // t=1 b=1 l=2 r=2.
    GraphBuilder b;
    const auto quant = perTensor(0.3f, 4);
    const int in = b.tensor("in", ir::DType::Int8, {1, 5, 5, 2}, quant);
    const int paddings = b.constant("paddings", ir::DType::Int32, {4, 2},
                                    std::vector<std::int32_t>{0, 0, 1, 0, 2, 1, 0, 0});
    const int padded = b.tensor("padded", ir::DType::Int8, {1, 6, 8, 2}, quant);
    const int w = b.constant("w", ir::DType::Int8, {1, 3, 3, 2}, test::filterValues(18, 4),
                             perChannel({0.01f, 0.02f}, 3));
    const int out = b.tensor("out", ir::DType::Int8, {1, 3, 4, 2}, perTensor(0.2f, -1));
    b.op(ir::OpType::Pad, {in, paddings}, {padded});
    ir::DepthwiseConv2DAttrs attrs;
    attrs.strideH = attrs.strideW = 2;
    b.op(ir::OpType::DepthwiseConv2D, {padded, w, ir::kNoTensor}, {out}, attrs);
    const auto graph = b.inputs({in}).outputs({out}).build();
    QCOMPARE(test::checkMessages(graph), std::string());
    // Whether legalised first or not, the same pads result.
    for (const bool legaliseFirst : {false, true}) {
      const auto start = legaliseFirst ? test::runPass(passes::legalize, graph) : graph;
      const auto after = test::runPass(passes::fuseOperators, start);
      QCOMPARE(after.operators.size(), std::size_t{1});
      QCOMPARE(paddingOf(after.operators[0]), (ir::ExplicitPadding{1, 1, 2, 2}));
      QVERIFY(test::sameOutputs(graph, after, 16));
    }
  }

  void padFusesFor16x8AndFloat() {
    {  // int16 PAD pads with 0, which 16x8 kernels skip.
      GraphBuilder b;
      const auto quant = perTensor(0.001f, 0);
      const int in = b.tensor("in", ir::DType::Int16, {1, 4, 3, 2}, quant);
      const int paddings = b.constant("paddings", ir::DType::Int32, {4, 2},
                                      std::vector<std::int32_t>{0, 0, 0, 0, 2, 2, 0, 0});
      const int padded = b.tensor("padded", ir::DType::Int16, {1, 4, 7, 2}, quant);
      const int w = b.constant("w", ir::DType::Int8, {3, 1, 3, 2}, test::filterValues(18, 8),
                               perChannel({0.01f, 0.02f, 0.03f}, 0));
      const int bias =
          b.constant("bias", ir::DType::Int64, {3}, std::vector<std::int64_t>{5, -5, 100});
      const int out = b.tensor("out", ir::DType::Int16, {1, 4, 5, 3}, perTensor(0.002f, 0));
      b.op(ir::OpType::Pad, {in, paddings}, {padded});
      ir::Conv2DAttrs attrs;
      attrs.padding = ir::Padding::Valid;
      b.op(ir::OpType::Conv2D, {padded, w, bias}, {out}, attrs);
      const auto graph = b.inputs({in}).outputs({out}).build();
      QCOMPARE(test::checkMessages(graph), std::string());
      const auto after = test::runPass(passes::fuseOperators, graph);
      QCOMPARE(after.operators.size(), std::size_t{1});
      QCOMPARE(paddingOf(after.operators[0]), (ir::ExplicitPadding{0, 0, 2, 2}));
      QVERIFY(test::sameOutputs(graph, after, 16));
    }
    {  // float PADV2 with 0.0, and with 1.0 (not fused).
      for (const float value : {0.0f, 1.0f}) {
        GraphBuilder b;
        const int in = b.tensor("in", ir::DType::Float32, {1, 3, 3, 1});
        const int paddings = b.constant("paddings", ir::DType::Int32, {4, 2},
                                        std::vector<std::int32_t>{0, 0, 1, 1, 1, 1, 0, 0});
        const int v = b.constant("value", ir::DType::Float32, {}, std::vector<float>{value});
        const int padded = b.tensor("padded", ir::DType::Float32, {1, 5, 5, 1});
        const int w = b.constant("w", ir::DType::Float32, {2, 3, 3, 1},
                                 std::vector<float>{1, -2, 3, 0.5f, 0, -1, 2, 2, -0.25f, 1, 1, 1,
                                                    -1, -1, -1, 0.125f, 4, 0});
        const int out = b.tensor("out", ir::DType::Float32, {1, 3, 3, 2});
        b.op(ir::OpType::PadV2, {in, paddings, v}, {padded});
        ir::Conv2DAttrs attrs;
        attrs.padding = ir::Padding::Valid;
        b.op(ir::OpType::Conv2D, {padded, w, ir::kNoTensor}, {out}, attrs);
        const auto graph = b.inputs({in}).outputs({out}).build();
        const auto after = test::runPass(passes::fuseOperators, graph);
        QCOMPARE(after.operators.size(), std::size_t{value == 0.0f ? 1u : 2u});
        QVERIFY(test::sameOutputs(graph, after, 16));
      }
    }
  }

  void padConvReluChainBecomesOneOperator() {
    auto c = padThenConv({0, 0, 1, 1, 1, 1, 0, 0}, std::nullopt);
    // Append a RELU reading the convolution's output.
    const int act = static_cast<int>(c.graph.tensors.size());
    ir::Tensor t = c.graph.tensor(c.conv);
    t.index = act;
    t.name = "act";
    c.graph.tensors.push_back(t);
    ir::Operator relu;
    relu.index = 2;
    relu.type = ir::OpType::Relu;
    relu.inputs = {c.conv};
    relu.outputs = {act};
    c.graph.operators.push_back(relu);
    c.graph.outputs = {act};
    const auto after = test::runPass(passes::fuseOperators, c.graph);
    QCOMPARE(after.operators.size(), std::size_t{1});
    QCOMPARE(after.operators[0].sourceOperators, (std::vector<int>{0, 1, 2}));
    QCOMPARE(after.operators[0].inputs[0], c.source);
    QCOMPARE(after.operators[0].outputs[0], act);
    QVERIFY(ir::printGraph(after).find("// op 0 v1 fused from #0,#1,#2\n") != std::string::npos);
    QVERIFY(test::sameOutputs(c.graph, after));
  }

  // --- views ------------------------------------------------------------------

  void noCopyShapeOperatorsAreViews() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 2, 3}, perTensor(0.1f, 2));
    const int same = b.tensor("same", ir::DType::Int8, {6}, perTensor(0.1f, 2));
    const int requantised = b.tensor("requantised", ir::DType::Int8, {6}, perTensor(0.2f, 2));
    const int squeezed = b.tensor("squeezed", ir::DType::Int8, {2, 3}, perTensor(0.1f, 2));
    const int c = b.constant("c", ir::DType::Int8, {2, 1}, std::vector<std::int8_t>{1, 2},
                             perTensor(0.1f, 2));
    const int fromConstant = b.tensor("from_constant", ir::DType::Int8, {2}, perTensor(0.1f, 2));
    ir::ReshapeAttrs reshape;
    reshape.newShape = {6};
    b.op(ir::OpType::Reshape, {in}, {same}, reshape);
    b.op(ir::OpType::Reshape, {in}, {requantised}, reshape);
    b.op(ir::OpType::Squeeze, {in}, {squeezed}, ir::SqueezeAttrs{});
    b.op(ir::OpType::Reshape, {c}, {fromConstant}, ir::ReshapeAttrs{{2}});
    const auto graph = b.inputs({in}).outputs({same, requantised, squeezed, fromConstant}).build();
    const auto after = test::runPass(passes::fuseOperators, graph);
    QCOMPARE(after.operators.size(), std::size_t{4});
    QVERIFY(after.operators[0].isView);
    QVERIFY(!after.operators[1].isView);  // other scale: not the same bytes' meaning
    QVERIFY(after.operators[2].isView);
    QVERIFY(!after.operators[3].isView);  // constant input: fold_constants' business
    QVERIFY(ir::printGraph(after).find("// op 0 v1 view\n") != std::string::npos);
  }
};

QTEST_APPLESS_MAIN(FuseOperators)
#include "fuse_operators_test.moc"
