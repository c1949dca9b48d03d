// Buffer analysis: which tensors get workspace buffers, their rounded sizes
// and lifetimes over the execution order, aliasing of views and in-place
// element-wise operators (only where the input dies and the bytes agree),
// and the lower bound over the same aliased buffers.
#include <QtTest>

#include "graph_builder.h"
#include "ir/storage_view.h"
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

  // Patch-based execution's views: a SLICE of contiguous rows and a
  // CONCATENATION of row blocks, both marked isView, share storage at byte
  // offsets - the slices the model input's, the concatenation's inputs its
  // buffer, which lives from the first of them on. Unmarked, or cutting
  // columns, they are ordinary operators with buffers of their own.
  void slicesAndConcatenationsMarkedAsViewsShareStorageAtOffsets() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {1, 6, 4, 2});
    const int top = g.tensor("top", ir::DType::Int8, {1, 3, 4, 2});
    const int bottom = g.tensor("bottom", ir::DType::Int8, {1, 3, 4, 2});
    const int a = g.tensor("a", ir::DType::Int8, {1, 3, 4, 2});
    const int b = g.tensor("b", ir::DType::Int8, {1, 3, 4, 2});
    const int whole = g.tensor("whole", ir::DType::Int8, {1, 6, 4, 2});
    const int out = g.tensor("out", ir::DType::Int8, {1, 6, 4, 2});
    const int size = g.constant<std::int32_t>("size", ir::DType::Int32, {4}, {1, 3, 4, 2});
    const int beginTop = g.constant<std::int32_t>("b0", ir::DType::Int32, {4}, {0, 1, 0, 0});
    const int beginBottom = g.constant<std::int32_t>("b1", ir::DType::Int32, {4}, {0, 3, 0, 0});
    g.op(ir::OpType::Slice, {in, beginTop, size}, {top});
    g.op(ir::OpType::Relu, {top}, {a});
    g.op(ir::OpType::Slice, {in, beginBottom, size}, {bottom});
    g.op(ir::OpType::Relu, {bottom}, {b});
    g.op(ir::OpType::Concatenation, {a, b}, {whole}, ir::ConcatenationAttrs{1});
    g.op(ir::OpType::Relu, {whole}, {out});
    ir::Graph graph = g.inputs({in}).outputs({out}).build();
    const auto separate = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    // top (a in place over it), bottom (b over it), whole
    QCOMPARE(separate.buffers.size(), std::size_t{3});
    QVERIFY(separate.offsetOf.empty());

    for (int op : {0, 2, 4}) graph.operators[static_cast<std::size_t>(op)].isView = true;
    QCOMPARE(ir::sliceViewOffset(graph, graph.operators[0]), std::optional<std::int64_t>{8});
    QCOMPARE(ir::concatViewOffsets(graph, graph.operators[4]),
             (std::optional<std::vector<std::int64_t>>{{0, 24}}));
    const auto analysis = memory::analyzeWorkspace(graph, memory::graphOrder(graph));
    QCOMPARE(analysis.buffers.size(), std::size_t{1});
    const auto* buffer = bufferOf(analysis, whole);
    QVERIFY(buffer != nullptr);
    QCOMPARE(buffer->aliases, (std::vector<int>{a, b}));
    QCOMPARE(buffer->firstStep, 1);  // written from the first block on
    QCOMPARE(buffer->lastStep, 5);
    QCOMPARE(analysis.storageOf.at(top), in);
    QCOMPARE(memory::storageOffset(analysis, top), std::int64_t{8});
    QCOMPARE(memory::storageOffset(analysis, bottom), std::int64_t{24});
    QCOMPARE(analysis.storageOf.at(b), whole);
    QCOMPARE(memory::storageOffset(analysis, a), std::int64_t{0});
    QCOMPARE(memory::storageOffset(analysis, b), std::int64_t{24});
    QVERIFY(memory::checkAliases(analysis).empty());

    // Cutting columns leaves rows apart: not one run of bytes.
    const int columns = g.tensor("columns", ir::DType::Int8, {1, 6, 2, 2});
    const int columnSize = g.constant<std::int32_t>("cs", ir::DType::Int32, {4}, {1, 6, 2, 2});
    const int origin = g.constant<std::int32_t>("o", ir::DType::Int32, {4}, {0, 0, 0, 0});
    const int cut = g.op(ir::OpType::Slice, {in, origin, columnSize}, {columns});
    ir::Graph cutGraph = g.build();
    cutGraph.operators[static_cast<std::size_t>(cut)].isView = true;
    QVERIFY(!ir::sliceViewOffset(cutGraph, cutGraph.operators[static_cast<std::size_t>(cut)]));
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
