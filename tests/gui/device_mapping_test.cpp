// The GUI compiling for the Ethos-U as `loupec compile --target` does: the
// Device Mapping view shows target::deviceReport's numbers and the cycles in
// every configuration, the graph colours every operator by its target, a
// row selects its operators in every view, the C of the Ethos-U operator is
// the driver call, the Command Stream view lists the region's stream, the
// stage navigator opens Partitioned and Fused, and another target
// recompiles in the background and changes the totals.
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QtTest>
#include <algorithm>

#include "frontend/tflite_importer.h"
#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/configuration_cycles_model.h"
#include "models/device_mapping.h"
#include "models/device_operator_table_model.h"
#include "models/device_totals_model.h"
#include "models/display_text.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/npu_command_stream_model.h"
#include "models/operator_properties_model.h"
#include "models/stage_tree_model.h"
#include "passes/pass_manager.h"
#include "quiet_main_window.h"
#include "target/device_report.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "views/command_stream_view.h"
#include "views/device_mapping_view.h"
#include "views/function_listing_view.h"
#include "views/graph_node_item.h"
#include "views/graph_view.h"
#include "views/pass_stage_view.h"
#include "views/stage_navigator.h"

using loupe::gui::MainWindow;
using loupe::models::ModelCompilation;

namespace {

const QString kEthosU128 = QStringLiteral("ethos-u -accelerator_config=ethos-u55-128, c");

// What `loupec compile MODEL --target TARGETS` reports.
loupe::target::DeviceReport loupecReport(const QString& path, const QString& targets) {
  const auto list = loupe::target::parseTargetString(targets.toStdString(),
                                                     loupe::targets::builtinTargetRegistry());
  loupe::passes::StageTimeline timeline;
  loupe::passes::PassContext context;
  const loupe::ir::Graph graph = loupe::passes::runPartitionPipeline(
      loupe::passes::runGraphPipeline(loupe::frontend::importTfliteFile(path.toStdString()),
                                      timeline, context),
      list, timeline, context);
  return loupe::target::deviceReport(graph, list);
}

const loupe::target::DeviceTotals& npuTotals(const loupe::target::DeviceReport& report) {
  for (const auto& d : report.devices) {
    if (d.device == "ethos-u") return d;
  }
  qFatal("no ethos-u device in the report");
}

// The row of the totals table for `device`, or -1.
int totalsRow(const QAbstractItemModel* model, const QString& device) {
  for (int row = 0; row < model->rowCount(); ++row) {
    if (model->index(row, loupe::models::DeviceTotalsModel::DeviceColumn).data() == device) {
      return row;
    }
  }
  return -1;
}

QString totalsCell(const QAbstractItemModel* model, const QString& device, int column) {
  return model->index(totalsRow(model, device), column).data().toString();
}

// A window compiled for `targets` with `path` open, shown.
std::unique_ptr<MainWindow> compiledWindow(const QString& path, const QString& targets) {
  auto window = std::make_unique<MainWindow>(quietOptions());
  window->resize(1400, 900);
  window->show();
  if (!window->setTargetString(targets)) return nullptr;
  if (!window->openModel(path) || !window->waitUntilIdle()) return nullptr;
  return window;
}

}  // namespace

class DeviceMappingTest : public QObject {
  Q_OBJECT

 private slots:
  void theEthosURowShowsLoupecsOperatorsAndCycles() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    QCOMPARE(window->compilation()->state(), ModelCompilation::State::Compiled);
    QCOMPARE(window->targetBox()->currentData().toString(), kEthosU128);
    const auto expected =
        npuTotals(loupecReport(loupe::test::kwsWithCpuTailModelPath(), kEthosU128));
    QVERIFY(expected.estimatedCycles);

    QVERIFY(window->showView("devices"));
    auto* view = window->deviceMappingView();
    const QAbstractItemModel* totals = view->totalsTable()->model();
    using Totals = loupe::models::DeviceTotalsModel;
    QVERIFY(totalsRow(totals, "ethos-u") >= 0);
    QCOMPARE(totalsCell(totals, "ethos-u", Totals::OperatorsColumn), QStringLiteral("1"));
    QCOMPARE(expected.operators, 1);
    QCOMPARE(totalsCell(totals, "ethos-u", Totals::EstimatedCyclesColumn),
             loupe::models::groupedNumber(*expected.estimatedCycles));
    QCOMPARE(totalsCell(totals, "ethos-u", Totals::TargetColumn),
             QStringLiteral("Ethos-U ethos-u55-128"));
    QCOMPARE(totalsCell(totals, "host", Totals::OperatorsColumn), QStringLiteral("1"));
    QCOMPARE(totalsCell(totals, "host", Totals::EstimatedCyclesColumn),
             QStringLiteral("no cycle model"));
    // The NPU is driven from main's code: the run function takes no devices.
    QVERIFY2(view->devicesStructLabel()->text().contains("ethosu_invoke_v3"),
             qPrintable(view->devicesStructLabel()->text()));

    // Per operator: the Ethos-U operator with its estimate, LOG_SOFTMAX with its reason.
    const QAbstractItemModel* operators = view->operatorTable()->model();
    using Ops = loupe::models::DeviceOperatorTableModel;
    QCOMPARE(operators->rowCount(), 2);
    QCOMPARE(operators->index(0, Ops::DeviceColumn).data().toString(), QStringLiteral("ethos-u"));
    QCOMPARE(operators->index(0, Ops::EstimatedCyclesColumn).data(Ops::SortRole).toLongLong(),
             *expected.estimatedCycles);
    QVERIFY(operators->index(0, Ops::OperatorColumn)
                .data(Ops::RejectionsRole)
                .toStringList()
                .isEmpty());
    QCOMPARE(operators->index(1, Ops::DeviceColumn).data().toString(), QStringLiteral("host"));
    const QStringList refused =
        operators->index(1, Ops::OperatorColumn).data(Ops::RejectionsRole).toStringList();
    QCOMPARE(refused,
             QStringList({"ethos-u: the Ethos-U emitter has no lowering of LOG_SOFTMAX yet"}));
    // The reasons stand where an NPU operator's estimate would.
    const QString shown = operators->index(1, Ops::ComputeCyclesColumn).data().toString();
    QVERIFY2(shown.startsWith("refused by ethos-u: the Ethos-U emitter"), qPrintable(shown));
    QCOMPARE(view->operatorTable()->columnSpan(1, Ops::ComputeCyclesColumn),
             Ops::WeightsColumn - Ops::ComputeCyclesColumn + 1);

    // The sweep: every configuration compiles the region again; the U55's
    // column for 128 MACs is the estimate, and more MACs never take more cycles.
    const auto* sweep = qobject_cast<const loupe::models::ConfigurationCyclesModel*>(
        view->configurationTable()->model());
    QVERIFY(sweep);
    QCOMPARE(sweep->columnCount(), sweep->kFirstConfigurationColumn + 6);
    QCOMPARE(sweep->rowCount(), 1 + 1);
    QStringList labels;
    for (int c = 0; c < 6; ++c) {
      labels << sweep->headerData(sweep->kFirstConfigurationColumn + c, Qt::Horizontal).toString();
    }
    QCOMPARE(labels, QStringList({"ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256",
                                  "ethos-u65-256", "ethos-u65-512"}));
    QCOMPARE(sweep->total(2), static_cast<qint64>(*expected.estimatedCycles));
    // The total row comes first, in sight.
    QCOMPARE(sweep->index(0, 0).data().toString(), QStringLiteral("total"));
    QCOMPARE(sweep->index(0, sweep->kFirstConfigurationColumn + 2).data().toString(),
             loupe::models::groupedNumber(*expected.estimatedCycles));
    for (int c = 1; c < 4; ++c) QVERIFY(sweep->total(c) <= sweep->total(c - 1));
    QVERIFY(sweep->total(0) > sweep->total(3));
  }

  void everyOperatorOfTheRegionIsColouredAsTheEthosUs() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    QVERIFY(window->showView("graph"));
    auto* graph = window->graphView();
    const auto& model = window->document()->graph();
    int onNpu = 0;
    for (const auto& op : model.operators) {
      auto* node = graph->nodeOfOperator(op.index);
      QVERIFY(node);
      const QString type = QString::fromStdString(op.typeName());
      const QString target = node->node().target;
      onNpu += target == "ethos-u";
      QVERIFY2(target == (type == "LOG_SOFTMAX" ? "c" : "ethos-u"),
               qPrintable(type + " on " + target));
      if (!node->isCurrent()) {
        QCOMPARE(node->fillColor(), loupe::views::GraphNodeItem::targetColor(target));
      }
      // The tool tip names the target, or why the NPU refused the operator.
      QVERIFY2(node->toolTip().contains(target == "ethos-u" ? "Ethos-U ethos-u55-128"
                                                            : "refused by ethos-u: "),
               qPrintable(node->toolTip()));
    }
    QCOMPARE(onNpu, 12);
    QVERIFY(loupe::views::GraphNodeItem::targetColor("ethos-u") !=
            loupe::views::GraphNodeItem::targetColor("c"));
    // The region is outlined and named.
    QCOMPARE(graph->regionNames(), QStringList({"ethos-u_0"}));
    bool legendNamesNpu = false;
    for (auto* label : graph->targetLegend()->findChildren<QLabel*>()) {
      legendNamesNpu =
          legendNamesNpu || (label->isVisible() && label->text().contains("NPU (Ethos-U)"));
    }
    QVERIFY(legendNamesNpu);

    // On the CPU alone every operator is the CPU's and there is no region.
    QVERIFY(window->setTargetString("c"));
    QVERIFY(window->waitUntilIdle());
    for (const auto& op : model.operators) {
      QCOMPARE(graph->nodeOfOperator(op.index)->node().target, QStringLiteral("c"));
    }
    QVERIFY(graph->regionNames().isEmpty());
  }

  // Every operator the NPU runs is tagged with its estimated NPU cycles, the
  // performance model's per-operation figures: they add up to the region's
  // NPU cycles (its estimate's computeCycles, as loupec reports it; the
  // estimate itself is the larger of those and the busiest memory's). The
  // RESHAPE, a view of its input's bytes, runs no operation: 0. The CPU's
  // LOG_SOFTMAX has no tag.
  void everyNpuOperatorShowsItsShareOfTheRegionsCycles() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    QVERIFY(window->showView("graph"));
    const loupe::target::DeviceReport report =
        loupecReport(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    std::optional<loupe::target::OperatorEstimate> region;
    for (const auto& row : report.operators) {
      if (row.device == "ethos-u") region = row.estimate;
    }
    QVERIFY(region);
    auto* graph = window->graphView();
    qint64 sum = 0;
    int tagged = 0;
    for (const auto& op : window->document()->graph().operators) {
      auto* node = graph->nodeOfOperator(op.index);
      QVERIFY(node);
      const QString type = QString::fromStdString(op.typeName());
      if (node->node().target != "ethos-u") {
        QVERIFY2(!node->npuCycles(), qPrintable(type));
        QVERIFY(node->npuCyclesText().isEmpty());
        QVERIFY(!node->toolTip().contains("NPU cycles"));
        continue;
      }
      QVERIFY2(node->npuCycles(), qPrintable(type));
      const qint64 cycles = *node->npuCycles();
      QCOMPARE(node->npuCyclesText(),
               QStringLiteral("\u2248%1 cyc").arg(loupe::models::groupedNumber(cycles)));
      QVERIFY2(
          node->toolTip().contains(
              QStringLiteral("%1 estimated NPU cycles").arg(loupe::models::groupedNumber(cycles))),
          qPrintable(node->toolTip()));
      // The tag is drawn beside the box, inside what the item covers.
      QVERIFY(node->boundingRect().width() > node->node().rect.width() + 20);
      if (type == "RESHAPE") {
        QCOMPARE(cycles, 0);
      } else {
        QVERIFY2(cycles > 0, qPrintable(type));
      }
      sum += cycles;
      ++tagged;
    }
    QCOMPARE(tagged, 12);
    QCOMPARE(sum, region->computeCycles);
    QVERIFY(region->estimatedCycles >= sum);
    const auto& mapping = window->compilation()->deviceMapping();
    QCOMPARE(mapping.rowFor(0)->npuCyclesError, QString());

    // Another configuration: its own figures, adding up to its own estimate.
    const QString u55256 = QStringLiteral("ethos-u -accelerator_config=ethos-u55-256, c");
    QVERIFY(window->setTargetString(u55256));
    QVERIFY(window->waitUntilIdle());
    qint64 sum256 = 0;
    for (int op = 0; op < 12; ++op) sum256 += graph->nodeOfOperator(op)->npuCycles().value_or(-1);
    std::optional<loupe::target::OperatorEstimate> region256;
    for (const auto& row : loupecReport(loupe::test::kwsWithCpuTailModelPath(), u55256).operators) {
      if (row.device == "ethos-u") region256 = row.estimate;
    }
    QVERIFY(region256);
    QCOMPARE(sum256, region256->computeCycles);
    QVERIFY(sum256 < sum);

    // The CPU alone: no tags.
    QVERIFY(window->setTargetString("c"));
    QVERIFY(window->waitUntilIdle());
    for (int op = 0; op < window->document()->operatorCount(); ++op) {
      QVERIFY(!graph->nodeOfOperator(op)->npuCycles());
    }
  }

  void aRowSelectsTheOperatorEverywhere() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    QVERIFY(window->showView("devices"));
    auto* table = window->deviceMappingView()->operatorTable();
    // The second row: LOG_SOFTMAX, on the CPU.
    const QModelIndex row = table->model()->index(1, 0);
    const int op = row.data(loupe::models::DeviceOperatorTableModel::OperatorIndexRole).toInt();
    QCOMPARE(op, 12);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
    QCOMPARE(window->document()->currentOperator(), op);
    QVERIFY(window->graphView()->nodeOfOperator(op)->isCurrent());
    QVERIFY(!window->graphView()->nodeOfOperator(0)->isCurrent());

    // An operator of the region: Properties shows where it runs, the region's
    // estimate and its TIR is the driver call.
    window->document()->setCurrentOperator(3);
    QCOMPARE(table->currentIndex().row(), 0);
    QCOMPARE(window->document()->currentOperator(), 3);  // not the row's first
    auto* properties = window->propertiesModel();
    QCOMPARE(properties->value("Placement", "Target"), QStringLiteral("Ethos-U ethos-u55-128"));
    QCOMPARE(properties->value("Placement", "Device"), QStringLiteral("ethos-u"));
    QCOMPARE(properties->value("Placement", "Region"), QStringLiteral("ethos-u_0"));
    // Its own share of the region's NPU cycles, as its graph node's tag.
    const int shown = properties->operatorIndex();
    QCOMPARE(shown, 3);
    QCOMPARE(
        properties->value("Placement", "NPU cycles (its share)"),
        loupe::models::groupedNumber(*window->graphView()->nodeOfOperator(shown)->npuCycles()));
    QCOMPARE(properties->value("Estimate", "Estimated cycles"),
             table->model()
                 ->index(0, loupe::models::DeviceOperatorTableModel::EstimatedCyclesColumn)
                 .data()
                 .toString());
    const QString tir = window->tirView()->currentFunctionText();
    QVERIFY2(tir.contains("loupe_ethosu_run_operator"), qPrintable(tir));

    // Selected while the model compiles again (as loupe --select does), an
    // operator of the region is still the one selected once it is compiled.
    QVERIFY(window->setTargetString("ethos-u -accelerator_config=ethos-u55-256, c"));
    window->document()->setCurrentOperator(5);
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(table->currentIndex().row(), 0);
    QCOMPARE(window->document()->currentOperator(), 5);
    QCOMPARE(properties->operatorIndex(), 5);
  }

  void theCOfTheRegionIsTheDriverCallAndItsStreamIsListed() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    const auto& model = window->document()->graph();
    int conv = -1;
    for (const auto& op : model.operators) {
      if (op.typeName() == "DEPTHWISE_CONV_2D") conv = op.index;
    }
    QVERIFY(conv >= 0);
    window->document()->setCurrentOperator(conv);
    QVERIFY(window->showView("c"));
    const QString c = window->cView()->currentFunctionText();
    QVERIFY2(c.contains("loupe_ethosu_run_operator("), qPrintable(c));
    // The Command Stream view lists the region's stream: one kernel
    // operation per operator of the region but the RESHAPE (a view), each
    // DMA of buffered weights with the waits before and for it, then STOP.
    QVERIFY(window->showView("npu-stream"));
    const auto& listing = window->commandStreamView()->model()->listing();
    const auto count = [&listing](const QString& kind) {
      return static_cast<int>(std::count_if(
          listing.operations.begin(), listing.operations.end(),
          [&kind](const loupe::models::NpuOperationEntry& e) { return e.kind == kind; }));
    };
    const int dmas = count("DMA");
    QCOMPARE(count("DMA_WAIT"), dmas);
    QCOMPARE(count("KERNEL_WAIT"), dmas);
    QCOMPARE(listing.npuOperationCount() - 3 * dmas, 11);
    QCOMPARE(listing.accelerator, QStringLiteral("ethos-u55-128"));
    QVERIFY2(window->commandStreamView()->headerText().startsWith("ethos-u_0 (ops 0\u201311)"),
             qPrintable(window->commandStreamView()->headerText()));
    // A CPU operator stays plain C, and has no stream.
    window->document()->setCurrentOperator(static_cast<int>(model.operators.size()) - 1);
    QVERIFY(!window->cView()->currentFunctionText().contains("loupe_ethosu_run_operator"));
    QCOMPARE(window->commandStreamView()->model()->listing().npuOperationCount(), 0);
    // And a CPU-only compilation has no NPU call at all.
    QVERIFY(window->setTargetString("c"));
    QVERIFY(window->waitUntilIdle());
    window->document()->setCurrentOperator(conv);
    QVERIFY(!window->cView()->currentFunctionText().isEmpty());
    QVERIFY(!window->cView()->currentFunctionText().contains("loupe_ethosu_run_operator"));
    QCOMPARE(window->commandStreamView()->model()->listing().npuOperationCount(), 0);
  }

  void anotherTargetRecompilesInTheBackground() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    auto* compilation = window->compilation();
    const auto* sweep = qobject_cast<const loupe::models::ConfigurationCyclesModel*>(
        window->deviceMappingView()->configurationTable()->model());
    const qint64 npu32 = sweep->total(0);
    const qint64 npu128 = *compilation->deviceMapping().devices.front().estimatedCycles;
    QVERIFY(npu32 > npu128);

    // Choosing the U55 with 32 MACs returns at once and compiles on the worker.
    const QString u55_32 = QStringLiteral("ethos-u -accelerator_config=ethos-u55-32, c");
    auto* box = window->targetBox();
    const int index = box->findData(u55_32);
    QVERIFY(index > 0);
    box->setCurrentIndex(index);
    emit box->activated(index);
    QCOMPARE(compilation->targetString(), u55_32);
    QVERIFY(compilation->isBusy());
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(compilation->state(), ModelCompilation::State::Compiled);
    const QAbstractItemModel* totals = window->deviceMappingView()->totalsTable()->model();
    QCOMPARE(totalsCell(totals, "ethos-u", loupe::models::DeviceTotalsModel::EstimatedCyclesColumn),
             loupe::models::groupedNumber(npu32));
    QCOMPARE(totalsCell(totals, "ethos-u", loupe::models::DeviceTotalsModel::TargetColumn),
             QStringLiteral("Ethos-U ethos-u55-32"));

    // A bad target string changes nothing.
    QVERIFY(!window->setTargetString("ethos-u -accelerator_config=ethos-u55-31, c"));
    QCOMPARE(compilation->targetString(), u55_32);
    QVERIFY(!compilation->isBusy());

    // The CPU alone: one device, no cycle model, no devices struct.
    QVERIFY(window->setTargetString("c"));
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(totals->rowCount(), 1);
    QCOMPARE(totalsCell(totals, "host", loupe::models::DeviceTotalsModel::OperatorsColumn),
             QStringLiteral("13"));
    QVERIFY(compilation->deviceMapping().deviceMembers.isEmpty());
    QVERIFY(!window->deviceMappingView()->configurationTable()->isVisible());
  }

  void theEthosUChoiceCompilesTheRegionToOneNpuOperator() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), "c");
    QVERIFY(window);
    auto* box = window->targetBox();
    const int index = box->findData(QStringLiteral("ethos-u -accelerator_config=ethos-u55-128, c"));
    QVERIFY(index > 0);
    QCOMPARE(box->itemText(index), QStringLiteral("Ethos-U ethos-u55-128 + CPU"));
    box->setCurrentIndex(index);
    emit box->activated(index);
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(window->compilation()->state(), ModelCompilation::State::Compiled);
    // Every operator but LOG_SOFTMAX is one Ethos-U operator; LOG_SOFTMAX says why not.
    QVERIFY(window->showView("devices"));
    const QAbstractItemModel* operators = window->deviceMappingView()->operatorTable()->model();
    using Ops = loupe::models::DeviceOperatorTableModel;
    QCOMPARE(operators->rowCount(), 2);
    QCOMPARE(operators->index(0, Ops::TypeColumn).data().toString(),
             QStringLiteral("CUSTOM(ethos-u)"));
    QCOMPARE(operators->index(1, Ops::TypeColumn).data().toString(), QStringLiteral("LOG_SOFTMAX"));
    const QStringList refused =
        operators->index(1, Ops::OperatorColumn).data(Ops::RejectionsRole).toStringList();
    QVERIFY2(!refused.isEmpty() && refused.front().contains("LOG_SOFTMAX"),
             qPrintable(refused.join(';')));
  }

  void theNavigatorOpensPartitionedAndFused() {
    auto window = compiledWindow(loupe::test::kwsWithCpuTailModelPath(), kEthosU128);
    QVERIFY(window);
    auto* navigator = window->stageNavigator();
    const QAbstractItemModel* stages = navigator->model();
    const QModelIndex root = stages->index(0, 0);
    QStringList titles;
    for (int row = 0; row < stages->rowCount(root); ++row) {
      titles << stages->index(row, 0, root).data().toString();
    }
    QCOMPARE(titles, QStringList({"Imported", "Partitioned", "Fused", "TIR", "C", "Memory plan"}));

    navigator->setCurrentIndex(stages->index(1, 0, root));
    QCOMPARE(window->currentViewName(), QStringLiteral("devices"));
    navigator->setCurrentIndex(stages->index(2, 0, root));
    QCOMPARE(window->currentViewName(), QStringLiteral("passes"));
    auto* passes = window->passStageView();
    QCOMPARE(passes->shownStage(), QStringLiteral("fuse_operators"));
    QVERIFY(!passes->shownText().isEmpty());
    // The partitioned graph names each operator's target.
    QVERIFY(passes->showStage("partition_graph"));
    QVERIFY2(passes->shownText().contains("target ethos-u"),
             qPrintable(passes->shownText().left(400)));
    QVERIFY(passes->shownText() != window->compilation()->passStages().front().text);
  }
};

QTEST_MAIN(DeviceMappingTest)
#include "device_mapping_test.moc"
