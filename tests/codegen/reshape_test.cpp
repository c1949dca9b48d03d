// RESHAPE, SQUEEZE and EXPAND_DIMS through generated C: no function when the
// output is an intermediate tensor (it shares its input's storage), an
// element copy when the output is a model output or the input a constant;
// and the real RESHAPE of kws_ref_model as a one-operator graph.
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "test_data.h"
#include "test_group.h"

namespace reshape_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

ir::Graph shapeOpGraph(ir::OpType type, ir::DType dtype) {
  GraphBuilder g;
  const ir::Quantization q =
      dtype == ir::DType::Float32 ? ir::Quantization{} : test::perTensor(0.1f, 3);
  const int in = g.tensor("in", dtype, {2, 1, 6}, q);
  int out = 0;
  switch (type) {
    case ir::OpType::Reshape: {
      const int shape = g.constant("shape", ir::DType::Int32, {2}, std::vector<std::int32_t>{3, 4});
      out = g.tensor("out", dtype, {3, 4}, q);
      ir::ReshapeAttrs attrs;
      attrs.newShape = {3, 4};
      g.op(type, {in, shape}, {out}, attrs);
      break;
    }
    case ir::OpType::Squeeze: {
      out = g.tensor("out", dtype, {2, 6}, q);
      ir::SqueezeAttrs attrs;
      attrs.squeezeDims = {1};
      g.op(type, {in}, {out}, attrs);
      break;
    }
    default: {
      const int axis = g.constant("axis", ir::DType::Int32, {}, std::vector<std::int32_t>{-1});
      out = g.tensor("out", dtype, {2, 1, 6, 1}, q);
      g.op(type, {in, axis}, {out});
      break;
    }
  }
  return g.inputs({in}).outputs({out}).build();
}

// in -> ADD(in, in) -> RESHAPE -> out: the reshape is a view of the sum.
ir::Graph addThenReshape() {
  GraphBuilder g;
  const int in = g.tensor("in", ir::DType::Float32, {2, 6});
  const int sum = g.tensor("sum", ir::DType::Float32, {2, 6});
  const int shape = g.constant("shape", ir::DType::Int32, {1}, std::vector<std::int32_t>{12});
  const int flat = g.tensor("flat", ir::DType::Float32, {12});
  const int out = g.tensor("out", ir::DType::Float32, {12});
  g.op(ir::OpType::Add, {in, in}, {sum}, ir::ElementwiseAttrs{});
  ir::ReshapeAttrs attrs;
  attrs.newShape = {12};
  g.op(ir::OpType::Reshape, {sum, shape}, {flat}, attrs);
  g.op(ir::OpType::Add, {flat, flat}, {out}, ir::ElementwiseAttrs{});
  return g.inputs({in}).outputs({out}).build();
}

// constant -> RESHAPE -> ADD(in, reshaped): a constant has no storage to
// share, so the reshape is a copy out of the function's own constant.
ir::Graph reshapeOfAConstant() {
  GraphBuilder g;
  const int in = g.tensor("in", ir::DType::Float32, {2, 3});
  const int c = g.constant("c", ir::DType::Float32, {6},
                           std::vector<float>{0.5f, -1.25f, 2.0f, 3.5f, -0.75f, 1.0f});
  const int shape = g.constant("shape", ir::DType::Int32, {2}, std::vector<std::int32_t>{2, 3});
  const int reshaped = g.tensor("reshaped", ir::DType::Float32, {2, 3});
  const int out = g.tensor("out", ir::DType::Float32, {2, 3});
  ir::ReshapeAttrs attrs;
  attrs.newShape = {2, 3};
  g.op(ir::OpType::Reshape, {c, shape}, {reshaped}, attrs);
  g.op(ir::OpType::Add, {in, reshaped}, {out}, ir::ElementwiseAttrs{});
  return g.inputs({in}).outputs({out}).build();
}

}  // namespace

class ReshapeCodegen : public QObject {
  Q_OBJECT

 private slots:
  void modelOutputIsACopy_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dtype");
    for (auto [type, typeName] :
         {std::pair{ir::OpType::Reshape, "reshape"}, std::pair{ir::OpType::Squeeze, "squeeze"},
          std::pair{ir::OpType::ExpandDims, "expand_dims"}}) {
      for (auto [dtype, dtypeName] :
           {std::pair{ir::DType::Int8, "int8"}, std::pair{ir::DType::Int16, "int16"},
            std::pair{ir::DType::Float32, "float32"}}) {
        QTest::newRow((std::string(typeName) + " " + dtypeName).c_str())
            << static_cast<int>(type) << static_cast<int>(dtype);
      }
    }
  }

  void modelOutputIsACopy() {
    QFETCH(int, type);
    QFETCH(int, dtype);
    const ir::Graph graph =
        shapeOpGraph(static_cast<ir::OpType>(type), static_cast<ir::DType>(dtype));
    QCOMPARE(codegen::compileToC(graph, {}).functions.size(), std::size_t{1});
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void intermediateReshapeIsAView() {
    const ir::Graph graph = addThenReshape();
    QCOMPARE(codegen::compileToC(graph, {}).functions.size(), std::size_t{2});
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void reshapeOfAConstantIsACopy() {
    const ir::Graph graph = reshapeOfAConstant();
    QCOMPARE(codegen::compileToC(graph, {}).functions.size(), std::size_t{2});
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void kwsReshapeMatchesReference() {
    const ir::Graph model =
        frontend::importTfliteFile(test::modelsDir() / "kws_ref_model" / "model.tflite");
    const int op = test::firstOperatorOf(model, ir::OpType::Reshape);
    QVERIFY(op >= 0);
    const ir::Graph graph = test::oneOperatorGraph(model, op);
    QCOMPARE(codegen::compileToC(graph, {}).functions.size(), std::size_t{1});
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(ReshapeCodegen)

}  // namespace reshape_test

#include "reshape_test.moc"
