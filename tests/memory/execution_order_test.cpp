// Execution order: of the topological orders of a branching graph the one
// with the lowest lower bound is chosen; a chain keeps its one order; state
// shared through a variable tensor keeps its order.
#include <QtTest>

#include "graph_builder.h"
#include "memory/execution_order.h"

using namespace loupe;
using loupe::test::GraphBuilder;

class ExecutionOrderTest : public QObject {
  Q_OBJECT

 private slots:
  // Two branches that each expand then shrink; run one branch to its end
  // before starting the other and the two large tensors never meet.
  void finishesABranchBeforeStartingTheNext() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int bigA = g.tensor("bigA", ir::DType::Int8, {1, 1024});
    const int bigB = g.tensor("bigB", ir::DType::Int8, {1, 1024});
    const int smallA = g.tensor("smallA", ir::DType::Int8, {1, 16});
    const int smallB = g.tensor("smallB", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {bigA});
    g.op(ir::OpType::Relu, {in}, {bigB});
    g.op(ir::OpType::Relu, {bigA}, {smallA});
    g.op(ir::OpType::Relu, {bigB}, {smallB});
    g.op(ir::OpType::Add, {smallA, smallB}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto order = memory::chooseExecutionOrder(graph, {});
    QCOMPARE(order.graphOrderBound, std::int64_t{2048 + 16});
    QCOMPARE(order.bound, std::int64_t{1024 + 16 + 16});
    QVERIFY(order.changed());
    QVERIFY(order.exhaustive);
    QVERIFY(order.ordersEvaluated >= 2);
    QCOMPARE(order.operators, (std::vector<int>{0, 2, 1, 3, 4}));
  }

  void aChainHasOneOrder() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int a = g.tensor("a", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Relu, {a}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto order = memory::chooseExecutionOrder(graph, {});
    QCOMPARE(order.ordersEvaluated, std::int64_t{1});
    QVERIFY(!order.changed());
    QCOMPARE(order.operators, (std::vector<int>{0, 1}));
  }

  void keepsTheModelsOrderOnATie() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int a = g.tensor("a", ir::DType::Int8, {1, 16});
    const int b = g.tensor("b", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Relu, {in}, {b});
    g.op(ir::OpType::Add, {a, b}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto order = memory::chooseExecutionOrder(graph, {});
    QCOMPARE(order.ordersEvaluated, std::int64_t{2});
    QCOMPARE(order.operators, (std::vector<int>{0, 1, 2}));
  }

  void stopsAtTheLimitWithTheBestSoFar() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    std::vector<int> leaves;
    for (int i = 0; i < 8; ++i) {  // 8 independent operators: 40,320 orders
      leaves.push_back(g.tensor("l" + std::to_string(i), ir::DType::Int8, {1, 16}));
      g.op(ir::OpType::Relu, {in}, {leaves.back()});
    }
    const ir::Graph graph = g.inputs({in}).outputs(leaves).build();
    const auto order = memory::chooseExecutionOrder(graph, {}, {}, 100);
    QVERIFY(!order.exhaustive);
    QCOMPARE(order.ordersEvaluated, std::int64_t{100});
    QCOMPARE(order.operators.size(), std::size_t{8});
  }

  void operatorsSharingStateKeepTheirOrder() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int state = g.tensor("state", ir::DType::Int8, {1, 16});
    const int a = g.tensor("a", ir::DType::Int8, {1, 1024});
    const int b = g.tensor("b", ir::DType::Int8, {1, 16});
    const int c = g.tensor("c", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {a});        // 0
    g.op(ir::OpType::Add, {in, state}, {b});  // 1: uses the state first
    g.op(ir::OpType::Add, {a, state}, {c});   // 2: ... then this one
    g.op(ir::OpType::Add, {b, c}, {out});     // 3
    ir::Graph graph = g.inputs({in}).outputs({out}).build();
    graph.tensor(state).isVariable = true;
    const auto order = memory::chooseExecutionOrder(graph, {});
    // Without the state, 0 2 1 3 would have the lower bound (1,040 against 1,056).
    const auto& ops = order.operators;
    const auto position = [&](int op) {
      return std::find(ops.begin(), ops.end(), op) - ops.begin();
    };
    QVERIFY(position(1) < position(2));
  }

  // A group (an NPU region called as one function) runs back to back: the
  // branch-interleaving order 0 2 1 3 would split the group {0, 1}, so the
  // search only sees orders that keep it whole.
  void aContiguousGroupStaysTogether() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int bigA = g.tensor("bigA", ir::DType::Int8, {1, 1024});
    const int bigB = g.tensor("bigB", ir::DType::Int8, {1, 1024});
    const int smallA = g.tensor("smallA", ir::DType::Int8, {1, 16});
    const int smallB = g.tensor("smallB", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {bigA});            // 0
    g.op(ir::OpType::Relu, {in}, {bigB});            // 1
    g.op(ir::OpType::Relu, {bigA}, {smallA});        // 2
    g.op(ir::OpType::Relu, {bigB}, {smallB});        // 3
    g.op(ir::OpType::Add, {smallA, smallB}, {out});  // 4
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const std::vector<std::vector<int>> groups = {{1, 3}};
    const auto order = memory::chooseExecutionOrder(graph, {}, groups);
    // {1, 3} as one node: 0 2 (1 3) 4 keeps one large tensor alive at a time.
    QCOMPARE(order.operators, (std::vector<int>{0, 2, 1, 3, 4}));
    QCOMPARE(order.bound, std::int64_t{1024 + 16 + 16});
    // The model's own order with the group moved together.
    QCOMPARE(memory::groupedGraphOrder(graph, groups), (std::vector<int>{0, 1, 3, 2, 4}));
    QCOMPARE(memory::groupedGraphOrder(graph, {}), (std::vector<int>{0, 1, 2, 3, 4}));
    for (const auto& o : {order.operators, memory::groupedGraphOrder(graph, groups)}) {
      const auto at = std::find(o.begin(), o.end(), 1);
      QVERIFY(at + 1 != o.end() && *(at + 1) == 3);
    }
  }

  void aGroupThatCannotBeContiguousIsRefused() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int a = g.tensor("a", ir::DType::Int8, {1, 16});
    const int b = g.tensor("b", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {a});   // 0
    g.op(ir::OpType::Relu, {a}, {b});    // 1: between 0 and 2
    g.op(ir::OpType::Relu, {b}, {out});  // 2
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             memory::chooseExecutionOrder(graph, {}, {{0, 2}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             memory::chooseExecutionOrder(graph, {}, {{1, 0}}));
  }
};

QTEST_APPLESS_MAIN(ExecutionOrderTest)
#include "execution_order_test.moc"
