// Times what makes the Graph view feel fast or slow: launching the window to
// a drawn graph of vww_96_int8 (goal < 1 s) and the Graphviz layout of a
// synthetic 2,000-operator graph with ~2,700 edges (goal < 3 s). Runs
// offscreen; prints one line per measurement.
#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <cstdio>

#include "builtin_registries.h"
#include "gui/main_window.h"
#include "ir/graph.h"
#include "models/document_graph_layout.h"
#include "models/graph_layout.h"
#include "views/graph_view.h"

namespace {

// A chain of RELUs where every third operator is an ADD that also reads the
// output three steps back: 2,000 operators, ~2,666 data edges.
loupe::ir::Graph syntheticGraph(int operators) {
  loupe::ir::Graph graph;
  graph.name = "synthetic";
  auto addTensor = [&] {
    loupe::ir::Tensor t;
    t.index = static_cast<int>(graph.tensors.size());
    t.name = "t" + std::to_string(t.index);
    t.dtype = loupe::ir::DType::Int8;
    t.shape = {1, 16, 16, 8};
    graph.tensors.push_back(t);
    return t.index;
  };
  graph.inputs.push_back(addTensor());
  for (int i = 0; i < operators; ++i) {
    loupe::ir::Operator op;
    op.index = i;
    const int previous = graph.tensors.back().index;
    if (i % 3 == 2 && i >= 3) {
      op.type = loupe::ir::OpType::Add;
      op.inputs = {previous, previous - 3};
    } else {
      op.type = loupe::ir::OpType::Relu;
      op.inputs = {previous};
    }
    op.outputs = {addTensor()};
    graph.operators.push_back(op);
  }
  graph.outputs.push_back(graph.tensors.back().index);
  return graph;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);

  QElapsedTimer timer;
  timer.start();
  {
    // As loupe's main does: the registries, then the window.
    loupe::gui::MainWindow window(loupe::gui::MainWindow::Options{
        .interactive = false,
        .persistSettings = false,
        .registries = std::make_shared<const loupe::deploy::Registries>(
            loupe::plugins::builtinRegistries())});
    window.resize(1400, 900);
    window.showView(QStringLiteral("graph"));
    window.show();
    window.openModel(QStringLiteral(LOUPE_BENCH_MODELS_DIR "/vww_96_int8/model.tflite"));
    window.graphLayout()->waitUntilIdle();
    const QPixmap drawn = window.graphView()->grab();  // paints the scene once
    const qint64 ms = timer.elapsed();
    std::printf("launch to drawn graph, vww_96_int8 (%d nodes): %lld ms (goal < 1000)%s\n",
                window.graphView()->nodeCount(), static_cast<long long>(ms),
                drawn.isNull() ? " [nothing drawn]" : "");
    window.waitUntilIdle();  // let the compilation finish before the window goes
  }

  const loupe::ir::Graph graph = syntheticGraph(2000);
  std::size_t edges = 0;
  for (const auto& op : graph.operators) edges += op.inputs.size();
  timer.restart();
  const loupe::models::GraphLayout layout = loupe::models::layoutGraph(graph, {});
  std::printf("dot layout, %zu operators / %zu edges: %lld ms (goal < 3000)%s\n",
              graph.operators.size(), edges, static_cast<long long>(timer.elapsed()),
              layout.error.isEmpty() ? "" : " [failed]");
  return 0;
}
