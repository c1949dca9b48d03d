// Small whole models built from the one-input operators, through generated C
// against the reference interpreter: as built and after the default graph
// pass pipeline (which may fold or fuse some of them), so the lowerings work
// together with FULLY_CONNECTED, the AOT executor and the workspace plan.
//   float -> QUANTIZE -> FULLY_CONNECTED -> LOGISTIC -> DEQUANTIZE -> float
//   float -> QUANTIZE -> RELU -> LEAKY_RELU -> HARD_SWISH -> TANH -> QUANTIZE
//         -> int16 LOGISTIC -> RELU6 -> DEQUANTIZE -> float, plus the int8
//         TANH output as a second model output
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "passes/pass_manager.h"
#include "test_group.h"
#include "unary_codegen_cases.h"

namespace unary_model_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

using ir::DType;
using ir::OpType;

ir::Quantization q(float scale, std::int64_t zeroPoint) {
  return test::perTensor(scale, zeroPoint);
}

ir::Graph quantizedClassifier() {
  GraphBuilder g;
  const int in = g.tensor("in", DType::Float32, {2, 24});
  const int quantized = g.tensor("quantized", DType::Int8, {2, 24}, q(0.01f, -3));
  const int weights = g.constant("w", DType::Int8, {10, 24},
                                 test::randomValues<std::int8_t>(240, -127, 127, 5), q(0.02f, 0));
  const int bias =
      g.constant("b", DType::Int32, {10}, test::randomValues<std::int32_t>(10, -2000, 2000, 6));
  const int logits = g.tensor("logits", DType::Int8, {2, 10}, q(0.05f, 2));
  const int probabilities = g.tensor("probabilities", DType::Int8, {2, 10}, q(1.0f / 256, -128));
  const int out = g.tensor("out", DType::Float32, {2, 10});
  g.op(OpType::Quantize, {in}, {quantized});
  g.op(OpType::FullyConnected, {quantized, weights, bias}, {logits}, ir::FullyConnectedAttrs{});
  g.op(OpType::Logistic, {logits}, {probabilities});
  g.op(OpType::Dequantize, {probabilities}, {out});
  return g.inputs({in}).outputs({out}).build();
}

ir::Graph activationChain() {
  GraphBuilder g;
  const ir::Shape shape = {1, 7, 7, 5};
  const int in = g.tensor("in", DType::Float32, shape);
  const int x = g.tensor("x", DType::Int8, shape, q(0.008f, 1));
  const int relu = g.tensor("relu", DType::Int8, shape, q(0.004f, -128));
  const int leaky = g.tensor("leaky", DType::Int8, shape, q(0.005f, -20));
  const int swish = g.tensor("swish", DType::Int8, shape, q(0.004f, -30));
  const int tanh = g.tensor("tanh", DType::Int8, shape, q(1.0f / 128, 0));
  const int wide = g.tensor("wide", DType::Int16, shape, q(1.0f / 4096, 0));
  const int logistic = g.tensor("logistic", DType::Int16, shape, q(1.0f / 32768, 0));
  const int relu6 = g.tensor("relu6", DType::Int16, shape, q(1.0f / 32768, 0));
  const int out = g.tensor("out", DType::Float32, shape);
  ir::LeakyReluAttrs leakyAttrs;
  leakyAttrs.alpha = 0.3f;
  g.op(OpType::Quantize, {in}, {x});
  g.op(OpType::Relu, {x}, {relu});
  g.op(OpType::LeakyRelu, {relu}, {leaky}, leakyAttrs);
  g.op(OpType::HardSwish, {leaky}, {swish});
  g.op(OpType::Tanh, {swish}, {tanh});
  g.op(OpType::Quantize, {tanh}, {wide});
  g.op(OpType::Logistic, {wide}, {logistic});
  g.op(OpType::Relu6, {logistic}, {relu6});
  g.op(OpType::Dequantize, {relu6}, {out});
  return g.inputs({in}).outputs({out, tanh}).build();
}

ir::Graph afterPasses(const ir::Graph& graph) {
  passes::StageTimeline timeline;
  return passes::runGraphPipeline(graph, timeline);
}

}  // namespace

class UnaryModelCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("model");
    QTest::addColumn<bool>("passes");
    QTest::newRow("QUANTIZE-FC-LOGISTIC-DEQUANTIZE") << 0 << false;
    QTest::newRow("QUANTIZE-FC-LOGISTIC-DEQUANTIZE after passes") << 0 << true;
    QTest::newRow("activation chain") << 1 << false;
    QTest::newRow("activation chain after passes") << 1 << true;
  }

  void matchesReference() {
    QFETCH(int, model);
    QFETCH(bool, passes);
    const ir::Graph built = model == 0 ? quantizedClassifier() : activationChain();
    const ir::Graph graph = passes ? afterPasses(built) : built;
    QCOMPARE(graph.operators.size(), built.operators.size());
    // Random inputs in [-1, 1), then inputs from the type's edges (inf, NaN,
    // FLT_MAX) and a wider range.
    std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
    difference = test::differenceOn(graph, {test::unaryInputBytes(graph, 4, 3.0f)});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void everyOperatorHasItsOwnFunction() {
    const codegen::CompiledModel model = codegen::compileToC(activationChain(), {});
    QCOMPARE(model.functions.size(), std::size_t{9});
    QCOMPARE(model.functions.at(3).name, std::string("tvmgen_default_fused_hard_swish_3"));
  }
};

LOUPE_TEST_APPLESS_MAIN(UnaryModelCodegen)

}  // namespace unary_model_test

#include "unary_model_test.moc"
