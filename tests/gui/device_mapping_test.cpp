// The GUI compiling for the NPU (Ethos-U55-like) as `loupec compile --target`
// does: the Device Mapping view shows target::deviceReport's numbers, the
// graph colours every operator by its target, a row selects its operator in
// every view, the C of an NPU operator is the driver call, the stage
// navigator opens Partitioned and Fused, and another target recompiles in
// the background and changes the totals.
#include <QComboBox>
#include <QLabel>
#include <QTableView>
#include <QtTest>

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
#include "models/operator_properties_model.h"
#include "models/stage_tree_model.h"
#include "passes/pass_manager.h"
#include "quiet_main_window.h"
#include "target/device_report.h"
#include "target/target_string.h"
#include "targets/builtin_targets.h"
#include "views/device_mapping_view.h"
#include "views/function_listing_view.h"
#include "views/graph_node_item.h"
#include "views/graph_view.h"
#include "views/pass_stage_view.h"
#include "views/stage_navigator.h"

using loupe::gui::MainWindow;
using loupe::models::ModelCompilation;

namespace {

const QString kNpu128 = QStringLiteral("npu -config=npu-128, c");

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
    if (d.device == "npu") return d;
  }
  qFatal("no npu device in the report");
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
  void theNpuRowShowsLoupecsOperatorsAndCycles() {
    auto window = compiledWindow(loupe::test::kwsModelPath(), kNpu128);
    QVERIFY(window);
    QCOMPARE(window->compilation()->state(), ModelCompilation::State::Compiled);
    QCOMPARE(window->targetBox()->currentData().toString(), kNpu128);
    const auto expected = npuTotals(loupecReport(loupe::test::kwsModelPath(), kNpu128));
    QVERIFY(expected.estimatedCycles);

    QVERIFY(window->showView("devices"));
    auto* view = window->deviceMappingView();
    const QAbstractItemModel* totals = view->totalsTable()->model();
    using Totals = loupe::models::DeviceTotalsModel;
    QVERIFY(totalsRow(totals, "npu") >= 0);
    QCOMPARE(totalsCell(totals, "npu", Totals::OperatorsColumn), QStringLiteral("10"));
    QCOMPARE(expected.operators, 10);
    QCOMPARE(totalsCell(totals, "npu", Totals::EstimatedCyclesColumn),
             loupe::models::groupedNumber(*expected.estimatedCycles));
    QCOMPARE(totalsCell(totals, "npu", Totals::TargetColumn),
             QStringLiteral("NPU (Ethos-U55-like) npu-128"));
    QCOMPARE(totalsCell(totals, "host", Totals::OperatorsColumn), QStringLiteral("3"));
    QCOMPARE(totalsCell(totals, "host", Totals::EstimatedCyclesColumn),
             QStringLiteral("no cycle model"));
    // The generated code's devices struct has the NPU as its one member.
    QVERIFY2(view->devicesStructLabel()->text().contains("tvm_device_t* npu;"),
             qPrintable(view->devicesStructLabel()->text()));

    // Per operator: 13 rows, the NPU's with estimates, the CPU's with its reasons.
    const QAbstractItemModel* operators = view->operatorTable()->model();
    using Ops = loupe::models::DeviceOperatorTableModel;
    QCOMPARE(operators->rowCount(), 13);
    int npuRows = 0;
    for (int row = 0; row < operators->rowCount(); ++row) {
      const QString device = operators->index(row, Ops::DeviceColumn).data().toString();
      const QStringList refused =
          operators->index(row, Ops::OperatorColumn).data(Ops::RejectionsRole).toStringList();
      if (device.startsWith("npu")) {
        ++npuRows;
        QVERIFY(operators->index(row, Ops::EstimatedCyclesColumn).data(Ops::SortRole).toLongLong() >
                0);
        QVERIFY(refused.isEmpty());
      } else {
        QVERIFY2(device.startsWith("host"), qPrintable(device));
        QVERIFY(!refused.isEmpty());
        for (const QString& reason : refused)
          QVERIFY2(reason.startsWith("npu: "), qPrintable(reason));
        // The reasons stand where an NPU operator's estimate would.
        const QString shown = operators->index(row, Ops::ComputeCyclesColumn).data().toString();
        QVERIFY2(shown.contains(refused.front().mid(QStringLiteral("npu: ").size())),
                 qPrintable(shown));
        QVERIFY2(shown.startsWith("refused by NPU (Ethos-U55-like): "), qPrintable(shown));
        QCOMPARE(view->operatorTable()->columnSpan(row, Ops::ComputeCyclesColumn),
                 Ops::WeightsColumn - Ops::ComputeCyclesColumn + 1);
      }
    }
    QCOMPARE(npuRows, 10);

    // The sweep: four configurations, npu-128's total is the NPU's estimate,
    // and a bigger MAC array never takes more cycles.
    const auto* sweep = qobject_cast<const loupe::models::ConfigurationCyclesModel*>(
        view->configurationTable()->model());
    QVERIFY(sweep);
    QCOMPARE(sweep->columnCount(), sweep->kFirstConfigurationColumn + 4);
    QCOMPARE(sweep->rowCount(), 10 + 1);
    QStringList labels;
    for (int c = 0; c < 4; ++c) {
      labels << sweep->headerData(sweep->kFirstConfigurationColumn + c, Qt::Horizontal).toString();
    }
    QCOMPARE(labels, QStringList({"npu-32", "npu-64", "npu-128", "npu-256"}));
    QCOMPARE(sweep->total(2), static_cast<qint64>(*expected.estimatedCycles));
    // The total row comes first, in sight.
    QCOMPARE(sweep->index(0, 0).data().toString(), QStringLiteral("total"));
    QCOMPARE(sweep->index(0, sweep->kFirstConfigurationColumn + 2).data().toString(),
             loupe::models::groupedNumber(*expected.estimatedCycles));
    for (int c = 1; c < 4; ++c) QVERIFY(sweep->total(c) <= sweep->total(c - 1));
    QVERIFY(sweep->total(0) > sweep->total(3));
  }

  void everyConvolutionIsColouredAsNpu() {
    auto window = compiledWindow(loupe::test::kwsModelPath(), kNpu128);
    QVERIFY(window);
    QVERIFY(window->showView("graph"));
    auto* graph = window->graphView();
    const auto& model = window->document()->graph();
    int convolutions = 0;
    int onNpu = 0;
    for (const auto& op : model.operators) {
      auto* node = graph->nodeOfOperator(op.index);
      QVERIFY(node);
      const QString type = QString::fromStdString(op.typeName());
      const QString target = node->node().target;
      onNpu += target == "npu";
      if (type == "CONV_2D" || type == "DEPTHWISE_CONV_2D") {
        ++convolutions;
        QVERIFY2(target == "npu", qPrintable(type + " on " + target));
      } else {
        QVERIFY2(target == "npu" || target == "c", qPrintable(type + " on " + target));
      }
      if (!node->isCurrent()) {
        QCOMPARE(node->fillColor(), loupe::views::GraphNodeItem::targetColor(target));
      }
      // The tool tip names the target, or why the NPU refused the operator.
      QVERIFY2(node->toolTip().contains(target == "npu" ? "NPU (Ethos-U55-like)"
                                                        : "refused by NPU (Ethos-U55-like): "),
               qPrintable(node->toolTip()));
    }
    QCOMPARE(convolutions, 9);
    QCOMPARE(onNpu, 10);
    QVERIFY(loupe::views::GraphNodeItem::targetColor("npu") !=
            loupe::views::GraphNodeItem::targetColor("c"));
    // Every region of the partitioned graph is outlined (kws: the convolutions,
    // then the fully connected layer after the CPU's pooling and reshape).
    QStringList regions;
    for (const auto& row : window->compilation()->deviceMapping().operators) {
      if (!row.region.isEmpty() && !regions.contains(row.region)) regions << row.region;
    }
    QCOMPARE(regions.size(), 2);
    QCOMPARE(graph->regionNames(), regions);
    QVERIFY(!graph->targetLegend()->findChildren<QLabel*>().isEmpty());
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

  void aRowSelectsTheOperatorEverywhere() {
    auto window = compiledWindow(loupe::test::kwsModelPath(), kNpu128);
    QVERIFY(window);
    QVERIFY(window->showView("devices"));
    auto* table = window->deviceMappingView()->operatorTable();
    // The fourth row: an operator the NPU runs.
    const QModelIndex row = table->model()->index(3, 0);
    const int op = row.data(loupe::models::DeviceOperatorTableModel::OperatorIndexRole).toInt();
    QVERIFY(op > 0);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
    QCOMPARE(window->document()->currentOperator(), op);
    QVERIFY(window->graphView()->nodeOfOperator(op)->isCurrent());
    QVERIFY(!window->graphView()->nodeOfOperator(0)->isCurrent());
    const QString tir = window->tirView()->currentFunctionText();
    QVERIFY2(tir.contains("LoupeNpuRunStream"), qPrintable(tir));
    // Properties shows where it runs and the NPU's estimate.
    auto* properties = window->propertiesModel();
    QCOMPARE(properties->value("Placement", "Target"),
             QStringLiteral("NPU (Ethos-U55-like) npu-128"));
    QCOMPARE(properties->value("Placement", "Region"), QStringLiteral("npu_0"));
    QVERIFY(!properties->value("Estimate", "Estimated cycles").isEmpty());
    QCOMPARE(properties->value("Estimate", "Estimated cycles"),
             table->model()
                 ->index(3, loupe::models::DeviceOperatorTableModel::EstimatedCyclesColumn)
                 .data()
                 .toString());

    // Selecting elsewhere moves the row.
    window->document()->setCurrentOperator(0);
    QCOMPARE(table->currentIndex().row(), 0);
  }

  void theCOfAnNpuOperatorIsTheDriverCall() {
    auto window = compiledWindow(loupe::test::kwsModelPath(), kNpu128);
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
    QVERIFY2(c.contains("LoupeNpuRunStream"), qPrintable(c));
    // A CPU operator stays plain C.
    window->document()->setCurrentOperator(static_cast<int>(model.operators.size()) - 1);
    QVERIFY(!window->cView()->currentFunctionText().contains("LoupeNpuRunStream"));
    // And a CPU-only compilation has no NPU call at all.
    QVERIFY(window->setTargetString("c"));
    QVERIFY(window->waitUntilIdle());
    window->document()->setCurrentOperator(conv);
    QVERIFY(!window->cView()->currentFunctionText().isEmpty());
    QVERIFY(!window->cView()->currentFunctionText().contains("LoupeNpuRunStream"));
  }

  void anotherTargetRecompilesInTheBackground() {
    auto window = compiledWindow(loupe::test::kwsModelPath(), kNpu128);
    QVERIFY(window);
    auto* compilation = window->compilation();
    const auto* sweep = qobject_cast<const loupe::models::ConfigurationCyclesModel*>(
        window->deviceMappingView()->configurationTable()->model());
    const qint64 npu32 = sweep->total(0);
    const qint64 npu128 = *compilation->deviceMapping().devices.front().estimatedCycles;
    QVERIFY(npu32 > npu128);

    // Choosing npu-32 in the toolbar returns at once and compiles on the worker.
    auto* box = window->targetBox();
    const int index = box->findData(QStringLiteral("npu -config=npu-32, c"));
    QVERIFY(index > 0);
    box->setCurrentIndex(index);
    emit box->activated(index);
    QCOMPARE(compilation->targetString(), QStringLiteral("npu -config=npu-32, c"));
    QVERIFY(compilation->isBusy());
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(compilation->state(), ModelCompilation::State::Compiled);
    const QAbstractItemModel* totals = window->deviceMappingView()->totalsTable()->model();
    QCOMPARE(totalsCell(totals, "npu", loupe::models::DeviceTotalsModel::EstimatedCyclesColumn),
             loupe::models::groupedNumber(npu32));
    QCOMPARE(totalsCell(totals, "npu", loupe::models::DeviceTotalsModel::TargetColumn),
             QStringLiteral("NPU (Ethos-U55-like) npu-32"));

    // A bad target string changes nothing.
    QVERIFY(!window->setTargetString("npu -config=npu-31, c"));
    QCOMPARE(compilation->targetString(), QStringLiteral("npu -config=npu-32, c"));
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
    auto window = compiledWindow(loupe::test::kwsModelPath(), "c");
    QVERIFY(window);
    auto* box = window->targetBox();
    const int index = box->findData(QStringLiteral("ethos-u -accelerator_config=ethos-u55-128, c"));
    QVERIFY(index > 0);
    QCOMPARE(box->itemText(index), QStringLiteral("Ethos-U ethos-u55-128 + CPU"));
    box->setCurrentIndex(index);
    emit box->activated(index);
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(window->compilation()->state(), ModelCompilation::State::Compiled);
    // Every operator but SOFTMAX is one Ethos-U operator; SOFTMAX says why not.
    QVERIFY(window->showView("devices"));
    const QAbstractItemModel* operators = window->deviceMappingView()->operatorTable()->model();
    using Ops = loupe::models::DeviceOperatorTableModel;
    QCOMPARE(operators->rowCount(), 2);
    QCOMPARE(operators->index(0, Ops::TypeColumn).data().toString(),
             QStringLiteral("CUSTOM(ethos-u)"));
    QCOMPARE(operators->index(1, Ops::TypeColumn).data().toString(), QStringLiteral("SOFTMAX"));
    const QStringList refused =
        operators->index(1, Ops::OperatorColumn).data(Ops::RejectionsRole).toStringList();
    QVERIFY2(!refused.isEmpty() && refused.front().contains("SOFTMAX"),
             qPrintable(refused.join(';')));
  }

  void theNavigatorOpensPartitionedAndFused() {
    auto window = compiledWindow(loupe::test::kwsModelPath(), kNpu128);
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
    QVERIFY2(passes->shownText().contains("npu"), qPrintable(passes->shownText().left(400)));
    QVERIFY(passes->shownText() != window->compilation()->passStages().front().text);
  }
};

QTEST_MAIN(DeviceMappingTest)
#include "device_mapping_test.moc"
