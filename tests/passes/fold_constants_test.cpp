// fold_constants: operators whose inputs are all constants are evaluated by
// their reference kernel and replaced by constant tensors holding exactly the
// bytes the kernel computes; anything reading a model input, a variable, or
// writing a model output stays.
#include <QtTest>

#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "pass_test_support.h"
#include "passes/fold_constants.h"

using namespace loupe;
using loupe::test::GraphBuilder;
using loupe::test::perTensor;

namespace {

struct AddGraph {
  ir::Graph graph;
  int a, b, sum, x, out;
};

// sum = ADD(a, b) of two int8 constants with different scales (a rescaling
// add, not a byte copy); out = ADD(x, sum) reads the model input.
AddGraph constantAddGraph() {
  GraphBuilder b;
  AddGraph g;
  g.a = b.constant("a", ir::DType::Int8, {1, 4}, std::vector<std::int8_t>{-128, -3, 50, 127},
                   perTensor(0.05f, -2));
  g.b = b.constant("b", ir::DType::Int8, {4}, std::vector<std::int8_t>{7, 100, -77, 127},
                   perTensor(0.08f, 3));
  g.sum = b.tensor("sum", ir::DType::Int8, {1, 4}, perTensor(0.1f, 1));
  g.x = b.tensor("x", ir::DType::Int8, {1, 4}, perTensor(0.1f, 1));
  g.out = b.tensor("out", ir::DType::Int8, {1, 4}, perTensor(0.2f, 0));
  b.op(ir::OpType::Add, {g.a, g.b}, {g.sum}, ir::ElementwiseAttrs{});
  b.op(ir::OpType::Add, {g.x, g.sum}, {g.out}, ir::ElementwiseAttrs{});
  g.graph = b.inputs({g.x}).outputs({g.out}).build();
  return g;
}

}  // namespace

class FoldConstants : public QObject {
  Q_OBJECT

 private slots:
  void allConstantAddBecomesItsResult() {
    const AddGraph g = constantAddGraph();
    passes::PassContext context;
    const auto folded = passes::foldConstants(g.graph, context);
    QCOMPARE(folded.operators.size(), std::size_t{1});
    QCOMPARE(folded.operators[0].inputs, (std::vector<int>{g.x, g.sum}));
    QCOMPARE(folded.operators[0].index, 0);
    QCOMPARE(folded.operators[0].sourceOperators, std::vector<int>{1});
    const ir::Tensor& sum = folded.tensor(g.sum);
    QVERIFY(sum.isConstant);
    QCOMPARE(sum.index, g.sum);  // tensor indices never move
    QCOMPARE(sum.quantization, g.graph.tensor(g.sum).quantization);

    // The bytes are what the interpreter computes for the tensor at run time.
    reference::ReferenceInterpreter interpreter(g.graph);
    interpreter.setInput(0, std::vector<std::uint8_t>(4, 0));
    interpreter.invoke();
    const auto expected = interpreter.tensorBytes(g.sum);
    QCOMPARE(sum.data, std::vector<std::uint8_t>(expected.begin(), expected.end()));
    QVERIFY(test::sameOutputs(g.graph, folded));
    QCOMPARE(context.remarks.size(), std::size_t{1});
    QCOMPARE(context.remarks[0], std::string("ADD #0 folded into %c2"));
    QVERIFY(ir::printGraph(folded).find("const  %c2 \"sum\"") != std::string::npos);
  }

  void chainsFoldCompletely() {
    GraphBuilder b;
    const int a = b.constant("a", ir::DType::Float32, {3}, std::vector<float>{-1.5f, 2.0f, 8.0f});
    const int relu = b.tensor("relu", ir::DType::Float32, {3});
    const int six = b.tensor("six", ir::DType::Float32, {3});
    const int x = b.tensor("x", ir::DType::Float32, {3});
    const int out = b.tensor("out", ir::DType::Float32, {3});
    b.op(ir::OpType::Relu, {a}, {relu});
    b.op(ir::OpType::Relu6, {relu}, {six});
    b.op(ir::OpType::Mul, {x, six}, {out}, ir::ElementwiseAttrs{});
    const auto graph = b.inputs({x}).outputs({out}).build();
    const auto folded = test::runPass(passes::foldConstants, graph);
    QCOMPARE(folded.operators.size(), std::size_t{1});
    QCOMPARE(folded.operators[0].type, ir::OpType::Mul);
    QCOMPARE(test::decode<float>(folded.tensor(six).data), (std::vector<float>{0.0f, 2.0f, 6.0f}));
    QVERIFY(test::sameOutputs(graph, folded));
  }

  void nonConstantInputsModelOutputsAndVariablesStay() {
    // Reads the model input: stays.
    {
      const AddGraph g = constantAddGraph();
      const auto folded = test::runPass(passes::foldConstants, g.graph);
      QCOMPARE(test::countOps(folded, ir::OpType::Add), 1);
      QVERIFY(!folded.tensor(g.out).isConstant);
    }
    // Writes a model output: stays (the output buffer must still be written).
    {
      AddGraph g = constantAddGraph();
      g.graph.outputs.push_back(g.sum);
      const auto folded = test::runPass(passes::foldConstants, g.graph);
      QCOMPARE(folded.operators.size(), std::size_t{2});
      QVERIFY(!folded.tensor(g.sum).isConstant);
    }
    // A variable constant input is state, not a constant: stays.
    {
      AddGraph g = constantAddGraph();
      g.graph.tensor(g.a).isVariable = true;
      const auto folded = test::runPass(passes::foldConstants, g.graph);
      QCOMPARE(folded.operators.size(), std::size_t{2});
    }
  }

  void operatorsTheKernelRefusesStay() {
    AddGraph g = constantAddGraph();
    g.graph.tensor(g.sum).dtype = ir::DType::Int32;  // int8 + int8 -> int32: no kernel path
    passes::PassContext context;
    const auto folded = passes::foldConstants(g.graph, context);
    QCOMPARE(folded.operators.size(), std::size_t{2});
    QCOMPARE(context.remarks.size(), std::size_t{1});
    QVERIFY(context.remarks[0].starts_with("ADD #0 has constant inputs but is not folded: "));
  }
};

QTEST_APPLESS_MAIN(FoldConstants)
#include "fold_constants_test.moc"
