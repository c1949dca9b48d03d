// A model compiled by Vela in the window: the graph shows its ethos-u
// operator as one node summarising the command stream, expands it into one
// node per NPU operation (as many as `loupec info --json` lists), the
// Command Stream dock lists every word of the stream under the register
// table's names, and picking an NPU operation in either selects it in the
// other. The NPU Regions dock maps the flash and the scratch (every weight
// stream, every feature map over its lifetime) and highlights the selected
// operation's ranges; the NPU Weights dock decodes the selected
// convolution's weights.
#include <QApplication>
#include <QDockWidget>
#include <QTabBar>
#include <QTableView>
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
#include "models/npu_region_model.h"
#include "models/npu_weights_model.h"
#include "quiet_main_window.h"
#include "views/command_stream_view.h"
#include "views/graph_node_item.h"
#include "views/graph_view.h"
#include "views/npu_region_chart.h"
#include "views/npu_regions_view.h"
#include "views/npu_weight_heat_map.h"
#include "views/npu_weights_view.h"

using loupe::gui::MainWindow;
using loupe::models::NpuCommandStreamModel;
using loupe::models::NpuRegionBoxKind;
using loupe::models::NpuRegionModel;

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

// The ordinal of the first NPU operation of `kind` ("CONV", "DMA") from
// `from` on; one command stream, so ordinals are indices.
int firstOperationOf(const ExpectedStream& expected, const std::string& kind, int from = 0) {
  for (const auto& op : expected.operations) {
    if (op.at("index").get<int>() >= from && op.at("kind").get<std::string>() == kind) {
      return op.at("index").get<int>();
    }
  }
  return -1;
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

  void theRegionsDockMapsTheFlashAndTheScratch() {
    const ExpectedStream expected = expectedStream();
    auto window = velaWindow();
    QVERIFY(window);
    QVERIFY(window->findChild<QDockWidget*>(QStringLiteral("npuRegionsDock")));
    QVERIFY(window->showView(QStringLiteral("npu-regions")));
    auto* view = window->npuRegionsView();
    QVERIFY(view->isVisible());
    QVERIFY(view->placeholderText().isEmpty());
    const NpuRegionModel* model = view->model();
    const auto& layout = model->layout();
    QCOMPARE(model->operatorIndex(), 0);
    QCOMPARE(layout.operationCount, static_cast<int>(expected.operations.size()) + 1);  // STOP
    const int flash = layout.laneOf(0), scratch = layout.laneOf(1);
    QVERIFY(flash >= 0 && scratch >= 0);
    QCOMPARE(layout.lanes[scratch].size, qint64{74464});
    QVERIFY2(view->headerText().contains(QStringLiteral("scratch 74,464 B")),
             qPrintable(view->headerText()));

    // One weight box per convolution's weight stream (person_detect's 32
    // CONV and 23 DEPTHWISE, one core each), each as long as the stream.
    int weightBoxes = 0;
    qint64 weightBytes = 0;
    for (const auto& box : layout.lanes[flash].boxes) {
      if (box.kind != NpuRegionBoxKind::Weights) continue;
      ++weightBoxes;
      weightBytes += box.size();
    }
    qint64 expectedWeightBytes = 0;
    for (const auto& op : expected.operations) {
      expectedWeightBytes += op.value("weight_bytes", std::int64_t{0});
    }
    QCOMPARE(weightBoxes, 55);
    QCOMPARE(weightBytes, expectedWeightBytes);
    // The flash from its first byte to its last, gaps named unused.
    qint64 reach = 0;
    for (const auto& box : layout.lanes[flash].boxes) {
      QVERIFY(box.begin <= reach);
      reach = std::max(reach, box.end);
    }
    QCOMPARE(reach, layout.lanes[flash].size);

    // The scratch: the operator's input read first, its output left at the end.
    const auto& boxes = layout.lanes[scratch].boxes;
    const auto input = std::find_if(boxes.begin(), boxes.end(), [](const auto& b) {
      return b.kind == NpuRegionBoxKind::Input;
    });
    QVERIFY(input != boxes.end());
    QVERIFY(!input->tensor.isEmpty());
    QCOMPARE(input->firstOperation, firstOperationOf(expected, "CONV"));
    const auto output = std::find_if(boxes.begin(), boxes.end(), [](const auto& b) {
      return b.kind == NpuRegionBoxKind::Output;
    });
    QVERIFY(output != boxes.end());
    QCOMPARE(output->lastOperation, layout.operationCount - 1);
    QVERIFY(std::count_if(boxes.begin(), boxes.end(), [](const auto& b) {
              return b.kind == NpuRegionBoxKind::FeatureMap;
            }) > 50);

    // The table: a row per box of every region, the shown region's in the view.
    int rows = 0;
    for (const auto& lane : layout.lanes) rows += static_cast<int>(lane.boxes.size());
    QCOMPARE(model->rowCount(), rows);
    QCOMPARE(view->regionTabs()->count(), static_cast<int>(layout.lanes.size()));
    QCOMPARE(view->chart()->lane(), scratch);
    QCOMPARE(view->table()->model()->rowCount(), static_cast<int>(boxes.size()));
    QVERIFY(view->showRegion(0));
    QCOMPARE(view->chart()->lane(), flash);
    QCOMPARE(view->table()->model()->rowCount(),
             static_cast<int>(layout.lanes[flash].boxes.size()));
  }

  void theRegionsFollowTheSelectedNpuOperation() {
    const ExpectedStream expected = expectedStream();
    auto window = velaWindow();
    QVERIFY(window);
    QVERIFY(window->showView(QStringLiteral("npu-regions")));
    auto* view = window->npuRegionsView();
    auto* chart = view->chart();
    auto* selection = window->npuOperationSelection();
    QVERIFY(chart->highlightedBoxes().isEmpty());

    // Elsewhere (the Command Stream) a convolution: its IFM, OFM and its
    // weights' DMA copy light up in the scratch, its row is current.
    const int conv = firstOperationOf(expected, "CONV", 20);
    QVERIFY(conv > 0);
    selection->select(0, conv);
    const auto& layout = view->model()->layout();
    QVERIFY(chart->highlightedBoxes().size() >= 2);
    for (int box : chart->highlightedBoxes()) {
      QVERIFY(layout.lanes[chart->lane()].boxes[box].operations.contains(conv));
    }
    QVERIFY(view->table()->currentIndex().data(NpuRegionModel::SelectedRole).toBool());
    QCOMPARE(window->commandStreamView()
                 ->tree()
                 ->currentIndex()
                 .data(NpuCommandStreamModel::OperationRole)
                 .toInt(),
             conv);

    // Its weights in the flash.
    QVERIFY(view->showRegion(0));
    bool weights = false;
    for (int box : chart->highlightedBoxes()) {
      weights = weights || layout.lanes[chart->lane()].boxes[box].kind == NpuRegionBoxKind::Weights;
    }
    QVERIFY(weights);

    // Clicking another box in the chart selects the operation under the click.
    QVERIFY(view->showRegion(1));
    QApplication::processEvents();
    const auto& boxes = layout.lanes[chart->lane()].boxes;
    int other = -1;
    for (int i = 0; i < boxes.size() && other < 0; ++i) {
      if (!boxes[i].operations.contains(conv) && boxes[i].kind == NpuRegionBoxKind::FeatureMap &&
          chart->boxRect(i).height() > 4 && chart->boxAt(chart->boxRect(i).center()) == i) {
        other = i;
      }
    }
    QVERIFY(other >= 0);
    const QRectF r = chart->boxRect(other);
    QTest::mouseClick(chart, Qt::LeftButton, {}, r.center().toPoint());
    QVERIFY(selection->operation() != conv);
    QVERIFY(boxes[other].operations.contains(selection->operation()));
    QVERIFY(chart->highlightedBoxes().contains(other));
  }

  void theWeightsDockDecodesTheSelectedConvolution() {
    const ExpectedStream expected = expectedStream();
    auto window = velaWindow();
    QVERIFY(window);
    QVERIFY(window->findChild<QDockWidget*>(QStringLiteral("npuWeightsDock")));
    QVERIFY(window->showView(QStringLiteral("npu-weights")));
    auto* view = window->npuWeightsView();
    QVERIFY(view->isVisible());
    QVERIFY(view->placeholderText().contains(QStringLiteral("CONV")));

    const int conv = firstOperationOf(expected, "CONV");
    window->npuOperationSelection()->select(0, conv);
    const auto& op = expected.operations.at(static_cast<std::size_t>(conv));
    const auto& w = view->model()->weights();
    QVERIFY2(w.error.isEmpty(), qPrintable(w.error));
    QCOMPARE(w.ofmDepth, op.at("ofm")[2].get<int>());
    QCOMPARE(w.kernelHeight, op.at("kernel")[0].get<int>());
    QCOMPARE(w.kernelWidth, op.at("kernel")[1].get<int>());
    QCOMPARE(w.ifmDepth, op.at("ifm")[2].get<int>());
    QCOMPARE(w.encodedBytes, op.at("weight_bytes").get<qint64>());
    QCOMPARE(view->model()->rowCount(), w.ofmDepth);
    QCOMPARE(w.ohwi.size(), qsizetype(w.ofmDepth) * w.valuesPerChannel());
    const QString header = view->headerText();
    QVERIFY2(header.startsWith(QStringLiteral("npu %1 CONV").arg(conv)), qPrintable(header));
    QVERIFY2(header.contains(QStringLiteral("bits a weight")), qPrintable(header));
    // Every channel has its record: a scale, a shift, a multiplier below 1.
    for (int row = 0; row < view->model()->rowCount(); ++row) {
      QVERIFY(w.channels[row].scale > 0);
      QVERIFY(w.channels[row].multiplier > 0 && w.channels[row].multiplier < 1);
    }
    // Picking a channel in the heat map picks its row.
    emit view->heatMap()->channelClicked(3);
    QCOMPARE(view->table()->currentIndex().row(), 3);
    QCOMPARE(view->heatMap()->selectedChannel(), 3);

    // A depthwise convolution: one input channel a weight.
    const int depthwise = firstOperationOf(expected, "DEPTHWISE");
    window->npuOperationSelection()->select(0, depthwise);
    QVERIFY(view->model()->weights().depthwise);
    QCOMPARE(view->model()->weights().ifmDepth, 1);

    // A DMA has none.
    window->npuOperationSelection()->select(0, firstOperationOf(expected, "DMA"));
    QVERIFY2(view->placeholderText().contains(QStringLiteral("has no weights")),
             qPrintable(view->placeholderText()));
    QCOMPARE(view->model()->rowCount(), 0);
  }

  void otherModelsListNoStream() {
    auto window = std::make_unique<MainWindow>(quietOptions());
    window->show();
    QVERIFY(window->openModel(loupe::test::kwsModelPath()));
    QVERIFY(window->waitUntilIdle());
    QVERIFY(!window->graphView()->npuOperationsButton()->isVisibleTo(window->graphView()));
    QVERIFY(window->commandStreamView()->placeholderText().contains(QStringLiteral("ethos-u")));
    QCOMPARE(window->commandStreamView()->model()->rowCount(), 0);
    QVERIFY(window->npuRegionsView()->placeholderText().contains(QStringLiteral("ethos-u")));
    QCOMPARE(window->npuRegionsView()->model()->rowCount(), 0);
    QVERIFY(!window->npuWeightsView()->placeholderText().isEmpty());
  }
};

QTEST_MAIN(EthosUViewsTest)
#include "ethosu_views_test.moc"
