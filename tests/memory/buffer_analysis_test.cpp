// Buffer analysis: which tensors get workspace buffers, their rounded sizes
// and lifetimes over the execution order, aliasing of views and in-place
// element-wise operators (only where the input dies and the bytes agree),
// and the lower bound over the same aliased buffers.
#include <QtTest>

#include "graph_builder.h"
#include "memory/buffer_analysis.h"
#include "memory/lower_bound.h"
#include "memory/plan_checker.h"

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

const memory::WorkspaceBuffer* bufferOf(const memory::WorkspaceAnalysis& a, int tensor) {
  for (const auto& b : a.buffers) {
    if (b.tensor == tensor) return &b;
  }
  return nullptr;
}

}  // namespace

class BufferAnalysisTest : public QObject {
  Q_OBJECT

 private slots:
  void chainLifetimesAndRoundedSizes() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 10});
    const int a = g.tensor("a", ir::DType::Int8, {1, 20});
    const int b = g.tensor("b", ir::DType::Int8, {1, 33});
    const int out = g.tensor("out", ir::DType::Int8, {1, 5});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Relu, {a}, {b});
    g.op(ir::OpType::Relu, {b}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QCOMPARE(analysis.buffers.size(), std::size_t{2});  // not the model's input and output
    const auto* ba = bufferOf(analysis, a);
    const auto* bb = bufferOf(analysis, b);
    QVERIFY(ba && bb);
    QCOMPARE(ba->size, std::int64_t{32});  // 20 rounded up to 16
    QCOMPARE(bb->size, std::int64_t{48});
    QCOMPARE(ba->firstStep, 0);
    QCOMPARE(ba->lastStep, 1);
    QCOMPARE(bb->firstStep, 1);
    QCOMPARE(bb->lastStep, 2);
    QCOMPARE(memory::liveBytesLowerBound(analysis.buffers), std::int64_t{80});
    QCOMPARE(memory::liveBytesPerStep(analysis.buffers, 3),
             (std::vector<std::int64_t>{32, 80, 48}));
  }

  void aViewSharesItsInputsBufferAndExtendsIt() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 8});
    const int a = g.tensor("a", ir::DType::Int8, {1, 64});
    const int v = g.tensor("v", ir::DType::Int8, {8, 8});
    const int b = g.tensor("b", ir::DType::Int8, {8, 8});
    const int out = g.tensor("out", ir::DType::Int8, {8, 8});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Reshape, {a}, {v});
    g.op(ir::OpType::Relu, {in}, {b});
    g.op(ir::OpType::Add, {v, b}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QCOMPARE(analysis.buffers.size(), std::size_t{2});
    const auto* ba = bufferOf(analysis, a);
    QVERIFY(ba != nullptr);
    QCOMPARE(ba->aliases, std::vector<int>{v});
    QCOMPARE(analysis.storageOf.at(v), a);
    QCOMPARE(ba->lastStep, 3);  // read through the view at step 3
    QCOMPARE(analysis.lifetimes.at(v).firstStep, 1);
    QVERIFY(memory::checkAliases(analysis).empty());
  }

  void elementWiseWritesOverADyingInput() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 64});
    const int a = g.tensor("a", ir::DType::Int8, {1, 64});
    const int s = g.tensor("s", ir::DType::Int8, {1, 64});
    const int out = g.tensor("out", ir::DType::Int8, {1, 64});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Add, {a, in}, {s});
    g.op(ir::OpType::Relu, {s}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QCOMPARE(analysis.buffers.size(), std::size_t{1});
    QCOMPARE(analysis.storageOf.at(s), a);
    QCOMPARE(analysis.inPlaceOperators.at(1), a);
    QCOMPARE(memory::liveBytesLowerBound(analysis.buffers), std::int64_t{64});

    memory::AnalysisOptions noInPlace;
    noInPlace.inPlace = false;
    const auto separate = memory::analyzeWorkspace(graph, memory::graphOrder(graph), noInPlace);
    QCOMPARE(separate.buffers.size(), std::size_t{2});
    QVERIFY(separate.inPlaceOperators.empty());
    QCOMPARE(memory::liveBytesLowerBound(separate.buffers), std::int64_t{128});
  }

  void noInPlaceWhenTheInputIsReadLater() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 64});
    const int a = g.tensor("a", ir::DType::Int8, {1, 64});
    const int s = g.tensor("s", ir::DType::Int8, {1, 64});
    const int out = g.tensor("out", ir::DType::Int8, {1, 64});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Add, {a, in}, {s});
    g.op(ir::OpType::Add, {s, a}, {out});  // a is still needed here
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QCOMPARE(analysis.buffers.size(), std::size_t{2});
    QVERIFY(analysis.inPlaceOperators.empty());
  }

  void noInPlaceOverTheModelInputABroadcastOrAWiderType() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {4, 16});
    const int row = g.tensor("row", ir::DType::Int8, {1, 16});
    const int r = g.tensor("r", ir::DType::Int8, {1, 16});
    const int s = g.tensor("s", ir::DType::Int8, {4, 16});
    const int w = g.tensor("w", ir::DType::Int16, {4, 16});
    const int out = g.tensor("out", ir::DType::Int16, {4, 16});
    g.op(ir::OpType::Relu, {row}, {r});
    g.op(ir::OpType::Add, {in, r}, {s});  // `in` is the model's; r is broadcast
    g.op(ir::OpType::Mul, {s, s}, {w});   // int8 -> int16 changes the bytes
    g.op(ir::OpType::Relu, {w}, {out});
    const ir::Graph graph = g.inputs({in, row}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QVERIFY(analysis.inPlaceOperators.empty());
    QCOMPARE(analysis.buffers.size(), std::size_t{3});
  }

  void inPlaceAtTheModelOutputIsNotAllowed() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 64});
    const int a = g.tensor("a", ir::DType::Int8, {1, 64});
    const int out = g.tensor("out", ir::DType::Int8, {1, 64});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Add, {a, a}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QVERIFY(analysis.inPlaceOperators.empty());
    QCOMPARE(analysis.storageOf.at(out), out);
  }

  void theOrderDecidesLifetimes() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 16});
    const int a = g.tensor("a", ir::DType::Int8, {1, 16});
    const int b = g.tensor("b", ir::DType::Int8, {1, 16});
    const int out = g.tensor("out", ir::DType::Int8, {1, 16});
    g.op(ir::OpType::Relu, {in}, {a});
    g.op(ir::OpType::Relu, {in}, {b});
    g.op(ir::OpType::Sub, {a, b}, {out});
    const ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto analysis = memory::analyzeWorkspace(graph, {1, 0, 2});
    QCOMPARE(bufferOf(analysis, b)->firstStep, 0);
    QCOMPARE(bufferOf(analysis, a)->firstStep, 1);
    QCOMPARE(bufferOf(analysis, b)->lastStep, 2);
  }
};

QTEST_APPLESS_MAIN(BufferAnalysisTest)
#include "buffer_analysis_test.moc"
