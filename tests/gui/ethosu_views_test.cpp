// A model compiled by Vela in the window: the graph shows its ethos-u
// operator as one node summarising the command stream, expands it into one
// node per NPU operation (as many as `loupec info --json` lists), the
// Command Stream dock lists every word of the stream under the register
// table's names, and picking an NPU operation in either selects it in the
// other.
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

#include "analysis/ethosu_command_listing.h"
#include "frontend/tflite_importer.h"
#include "gui/main_window.h"
#include "gui_test_files.h"
#include "loupe/ethosu/ethosu_registers.h"
#include "models/document_graph_layout.h"
#include "models/model_document.h"
#include "models/npu_command_stream_model.h"
#include "models/npu_operation_selection.h"
#include "quiet_main_window.h"
#include "views/command_stream_view.h"
#include "views/graph_node_item.h"
#include "views/graph_view.h"

using loupe::gui::MainWindow;
using loupe::models::NpuCommandStreamModel;

namespace {

// What compiler_core says of the Vela model's one ethos-u operator (op 0).
struct ExpectedStream {
  nlohmann::json operations;  // npuOperationsJson: STOP left out
  std::uint32_t words = 0;    // of all its command streams
};

ExpectedStream expectedStream() {
  loupe::frontend::ImportOptions options;
  options.keepUnsupportedOperators = true;
  const loupe::ir::Graph graph =
      loupe::frontend::importTfliteFile(loupe::test::velaModelPath().toStdString(), options);
  const auto payload = loupe::analysis::ethosuPayloadOf(graph, graph.operators.at(0));
  ExpectedStream expected{loupe::analysis::npuOperationsJson(payload), 0};
  for (const auto& stream : payload.streams) expected.words += stream.wordCount;
  return expected;
}

std::unique_ptr<MainWindow> velaWindow() {
  auto window = std::make_unique<MainWindow>(quietOptions());
  window->resize(1400, 900);
  window->show();
  if (!window->openModel(loupe::test::velaModelPath()) || !window->waitUntilIdle()) return nullptr;
  return window;
}

bool expandAll(MainWindow& window) {
  window.graphView()->npuOperationsButton()->click();
  return window.waitUntilIdle();
}

// Clicks the middle of `item` in the graph canvas, as a user would.
void clickNode(loupe::views::GraphView* view, loupe::views::GraphNodeItem* item) {
  auto* canvas = view->canvas();
  canvas->centerOn(item);
  const QPoint at = canvas->mapFromScene(item->sceneBoundingRect().center());
  QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, at);
}

}  // namespace

class EthosUViewsTest : public QObject {
  Q_OBJECT

 private slots:
  void theGraphShowsTheEthosUOperatorCollapsed() {
    const ExpectedStream expected = expectedStream();
    auto window = velaWindow();
    QVERIFY(window);
    auto* graph = window->graphView();
    auto* node = graph->nodeOfOperator(0);
    QVERIFY(node);
    QCOMPARE(node->node().title, QStringLiteral("CUSTOM(ethos-u)"));
    const QString facts = node->node().facts.join(QLatin1Char('\n'));
    QVERIFY2(facts.contains(QStringLiteral("ethos-u55-256 \u00b7 %1 NPU operations")
                                .arg(expected.operations.size())),
             qPrintable(facts));
    QVERIFY2(facts.contains(QStringLiteral("MACs")), qPrintable(facts));
    QCOMPARE(graph->npuOperationNodeCount(0), 0);
    QVERIFY(graph->npuOperationsButton()->isVisibleTo(graph));
    QVERIFY(!graph->npuOperationsButton()->isChecked());
  }

  void expandingShowsOneNodePerNpuOperationInACluster() {
    const ExpectedStream expected = expectedStream();
    QVERIFY(expected.operations.size() > 100);
    auto window = velaWindow();
    QVERIFY(window);
    QVERIFY(expandAll(*window));
    auto* graph = window->graphView();
    QVERIFY(graph->npuOperationsButton()->isChecked());
    QCOMPARE(graph->npuOperationNodeCount(0), static_cast<int>(expected.operations.size()));
    QVERIFY(!graph->nodeOfOperator(0));  // no summary node beside them
    const auto& layout = window->graphLayout()->layout();
    QCOMPARE(layout.clusters.size(), 1);
    QVERIFY(layout.clusters.front().label.startsWith(QStringLiteral("op 0 CUSTOM(ethos-u)")));
    // Every NPU operation's node, in command order, top to bottom, inside the cluster.
    const QRectF cluster = layout.clusters.front().rect;
    double previousTop = -1;
    for (std::size_t i = 0; i < expected.operations.size(); ++i) {
      const auto& op = expected.operations[i];
      // One command stream: the listing's ordinal is the operation's index.
      auto* item = graph->nodeOfNpuOperation(0, op.at("index").get<int>());
      QVERIFY2(item, qPrintable(QStringLiteral("npu %1").arg(op.at("index").get<int>())));
      QCOMPARE(item->node().title, QStringLiteral("npu %1 %2")
                                       .arg(op.at("index").get<int>())
                                       .arg(QString::fromStdString(op.at("kind"))));
      QVERIFY(cluster.contains(item->node().rect));
      QVERIFY(item->node().rect.top() > previousTop);
      previousTop = item->node().rect.top();
    }

    // Double-click the cluster's operator (any of its nodes): one node again.
    window->graphLayout()->setExpanded(0, false);
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(graph->npuOperationNodeCount(0), 0);
    QVERIFY(graph->nodeOfOperator(0));
    QVERIFY(!graph->npuOperationsButton()->isChecked());
  }

  void theCommandStreamViewListsEveryWordByTheRegisterTable() {
    const ExpectedStream expected = expectedStream();
    auto window = velaWindow();
    QVERIFY(window);
    QVERIFY(window->showView(QStringLiteral("npu-stream")));
    auto* view = window->commandStreamView();
    QVERIFY(view->isVisible());
    QVERIFY(view->placeholderText().isEmpty());
    QVERIFY2(view->headerText().contains(QStringLiteral("ethos-u55-256")),
             qPrintable(view->headerText()));
    const NpuCommandStreamModel* model = view->model();
    QCOMPARE(model->operatorIndex(), 0);

    std::uint32_t words = 0;
    int nextOffset = 0;
    int operations = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
      const QModelIndex header = model->index(row, 0);
      QVERIFY(header.data(NpuCommandStreamModel::IsOperationRole).toBool());
      const QString summary = header.data().toString();
      if (!summary.contains(QStringLiteral(" STOP"))) {
        const auto& op = expected.operations.at(static_cast<std::size_t>(operations++));
        QVERIFY2(summary.startsWith(QStringLiteral("npu %1  %2")
                                        .arg(op.at("index").get<int>())
                                        .arg(QString::fromStdString(op.at("kind")))),
                 qPrintable(summary));
      }
      for (int c = 0; c < model->rowCount(header); ++c) {
        const auto cell = [&](int column) { return model->index(c, column, header); };
        // The words follow one another: none left out, none twice.
        QCOMPARE(cell(NpuCommandStreamModel::OffsetColumn).data().toInt(), nextOffset);
        const int count = cell(0).data(NpuCommandStreamModel::WordCountRole).toInt();
        QVERIFY(count == 1 || count == 2);
        const QStringList hex =
            cell(NpuCommandStreamModel::WordsColumn).data().toString().split(QLatin1Char(' '));
        QCOMPARE(hex.size(), count);
        bool ok = false;
        const auto word0 = static_cast<std::uint32_t>(hex.front().toUInt(&ok, 16));
        QVERIFY(ok);
        // Named by the register table, as the decoder names it.
        const auto* info = loupe_ethosu_find_command(
            word0 & (LOUPE_ETHOSU_OPCODE_MASK | LOUPE_ETHOSU_CONTROL_MASK));
        QVERIFY2(info, qPrintable(hex.front()));
        QCOMPARE(cell(NpuCommandStreamModel::CommandColumn).data().toString(),
                 QString::fromUtf8(info->name));
        nextOffset += count;
        words += static_cast<std::uint32_t>(count);
      }
    }
    QCOMPARE(operations, static_cast<int>(expected.operations.size()));
    QCOMPARE(words, expected.words);
  }

  void selectingAnNpuOperationSelectsItInTheOtherView() {
    const ExpectedStream expected = expectedStream();
    auto window = velaWindow();
    QVERIFY(window);
    QVERIFY(window->showView(QStringLiteral("npu-stream")));
    QVERIFY(expandAll(*window));
    auto* graph = window->graphView();
    auto* tree = window->commandStreamView()->tree();
    auto* selection = window->npuOperationSelection();

    // The graph to the listing: click NPU operation 10's node.
    auto* tenth = graph->nodeOfNpuOperation(0, 10);
    QVERIFY(tenth);
    clickNode(graph, tenth);
    QCOMPARE(window->document()->currentOperator(), 0);
    QCOMPARE(selection->operation(), 10);
    QVERIFY(tenth->isCurrent());
    QCOMPARE(tree->currentIndex().data(NpuCommandStreamModel::OperationRole).toInt(), 10);
    QVERIFY(tree->currentIndex().data(NpuCommandStreamModel::IsOperationRole).toBool());

    // The listing to the graph: the third command of the first operation
    // from npu 20 on that has three (a kernel operation, not a wait).
    int later = 20;
    while (later < tree->model()->rowCount() &&
           tree->model()->rowCount(tree->model()->index(later, 0)) < 3) {
      ++later;
    }
    QVERIFY(later < static_cast<int>(expected.operations.size()));
    tree->setCurrentIndex(tree->model()->index(2, 0, tree->model()->index(later, 0)));
    QCOMPARE(selection->operation(), later);
    auto* node = graph->nodeOfNpuOperation(0, later);
    QVERIFY(node && node->isCurrent());
    QVERIFY(!tenth->isCurrent());
    // The graph scrolled to it.
    QVERIFY(graph->canvas()
                ->mapToScene(graph->canvas()->viewport()->rect())
                .boundingRect()
                .intersects(node->sceneBoundingRect()));
  }

  void otherModelsListNoStream() {
    auto window = std::make_unique<MainWindow>(quietOptions());
    window->show();
    QVERIFY(window->openModel(loupe::test::kwsModelPath()));
    QVERIFY(window->waitUntilIdle());
    QVERIFY(!window->graphView()->npuOperationsButton()->isVisibleTo(window->graphView()));
    QVERIFY(window->commandStreamView()->placeholderText().contains(QStringLiteral("ethos-u")));
    QCOMPARE(window->commandStreamView()->model()->rowCount(), 0);
  }
};

QTEST_MAIN(EthosUViewsTest)
#include "ethosu_views_test.moc"
