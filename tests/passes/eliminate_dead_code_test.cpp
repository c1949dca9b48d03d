// eliminate_dead_code: operators nothing reads go (whole dead chains),
// operators with state or unknown effects stay, unread constants lose their
// data, tensor indices never move and operators keep their model indices.
#include <QtTest>

#include "graph_builder.h"
#include "ir/graph_printer.h"
#include "pass_test_support.h"
#include "passes/eliminate_dead_code.h"

using namespace loupe;
using loupe::test::GraphBuilder;

class EliminateDeadCode : public QObject {
  Q_OBJECT

 private slots:
  void deadChainsGoAndLiveOperatorsAreRenumbered() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {4});
    const int dead1 = b.tensor("dead1", ir::DType::Float32, {4});
    const int dead2 = b.tensor("dead2", ir::DType::Float32, {4});
    const int live = b.tensor("live", ir::DType::Float32, {4});
    const int k = b.constant("k", ir::DType::Float32, {4}, std::vector<float>{1, 2, 3, 4});
    const int out = b.tensor("out", ir::DType::Float32, {4});
    b.op(ir::OpType::Relu, {in}, {dead1});                               // #0 dead
    b.op(ir::OpType::Mul, {dead1, k}, {dead2}, ir::ElementwiseAttrs{});  // #1 dead
    b.op(ir::OpType::Relu6, {in}, {live});                               // #2
    b.op(ir::OpType::Add, {live, in}, {out}, ir::ElementwiseAttrs{});    // #3
    const auto graph = b.inputs({in}).outputs({out}).build();
    passes::PassContext context;
    const auto after = passes::eliminateDeadCode(graph, context);
    QCOMPARE(after.operators.size(), std::size_t{2});
    QCOMPARE(after.operators[0].type, ir::OpType::Relu6);
    QCOMPARE(after.operators[0].index, 0);
    QCOMPARE(after.operators[0].sourceOperators, std::vector<int>{2});
    QCOMPARE(after.operators[1].modelOperators(), std::vector<int>{3});
    QCOMPARE(after.tensors.size(), graph.tensors.size());
    for (std::size_t i = 0; i < after.tensors.size(); ++i) {
      QCOMPARE(after.tensors[i].index, static_cast<int>(i));
      QCOMPARE(after.tensors[i].name, graph.tensors[i].name);
    }
    // The constant only the dead MUL read is gone from the printed graph.
    QVERIFY(!after.tensor(k).isConstant);
    QVERIFY(after.tensor(k).data.empty());
    const std::string text = ir::printGraph(after);
    QVERIFY(text.find("\"k\"") == std::string::npos);
    QVERIFY(text.find("// op 0 v1 from #2\n") != std::string::npos);
    QCOMPARE(context.remarks.size(), std::size_t{3});
    QVERIFY(test::sameOutputs(graph, after));
    (void)dead2;
  }

  void modelOutputsStateAndOpaqueOperatorsStay() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {4});
    const int out = b.tensor("out", ir::DType::Float32, {4});
    const int state = b.tensor("state", ir::DType::Float32, {4});
    const int unread = b.tensor("unread", ir::DType::Float32, {4});
    const int opaqueOut = b.tensor("opaque", ir::DType::Float32, {4});
    b.op(ir::OpType::Relu, {in}, {out});
    b.op(ir::OpType::Add, {in, state}, {unread}, ir::ElementwiseAttrs{});
    b.op(ir::OpType::Opaque, {in}, {opaqueOut}, ir::OpaqueAttrs{"ethos-u", 32, {}});
    auto graph = b.inputs({in}).outputs({out}).build();
    graph.tensor(state).isVariable = true;
    const auto after = test::runPass(passes::eliminateDeadCode, graph);
    QCOMPARE(after.operators.size(), std::size_t{3});
  }

  void referencedConstantsKeepTheirData() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {2});
    const int k = b.constant("k", ir::DType::Float32, {2}, std::vector<float>{1, 2});
    const int out = b.tensor("out", ir::DType::Float32, {2});
    b.op(ir::OpType::Mul, {in, k}, {out}, ir::ElementwiseAttrs{});
    const auto graph = b.inputs({in}).outputs({out}).build();
    const auto after = test::runPass(passes::eliminateDeadCode, graph);
    QVERIFY(after.tensor(k).isConstant);
    QCOMPARE(after.tensor(k).data.size(), std::size_t{8});
    QCOMPARE(ir::printGraph(after), ir::printGraph(graph));
  }
};

QTEST_APPLESS_MAIN(EliminateDeadCode)
#include "eliminate_dead_code_test.moc"
