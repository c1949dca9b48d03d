// The Compare tab: kws on the CPU against kws on the Ethos-U marks the
// operators the NPU takes in the table and both graphs and shows both memory
// plans; a model against itself shows no difference; measured on the host,
// every operator has a time on both sides; two planners differ only in RAM;
// another model file pairs its layers; a row selects its operator everywhere;
// CPU vs NPU sets measured instructions against estimated NPU cycles per
// operator, two configurations their estimated cycles; Target B shows the
// choice B compiles, however it was typed.
#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QtTest>

#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/comparison_costs.h"
#include "models/compilation_comparison.h"
#include "models/display_text.h"
#include "models/memory_plan_layout.h"
#include "models/model_document.h"
#include "quiet_main_window.h"
#include "test_data.h"
#include "views/compare_view.h"
#include "views/graph_node_item.h"
#include "views/graph_view.h"
#include "views/memory_timeline_chart.h"

using loupe::gui::MainWindow;
using loupe::models::ComparisonTableModel;

namespace {

const QString kEthosU128 = QStringLiteral("ethos-u -accelerator_config=ethos-u55-128, c");
const QString kEthosU256 = QStringLiteral("ethos-u -accelerator_config=ethos-u55-256, c");

// The estimate of a side's one Ethos-U operator (kws's region).
const loupe::target::OperatorEstimate& regionEstimate(const loupe::models::DeviceMapping& mapping) {
  for (const auto& row : mapping.operators) {
    if (row.device == "ethos-u" && row.estimate) return *row.estimate;
  }
  qFatal("no Ethos-U operator with an estimate");
}

QString cell(const ComparisonTableModel& table, int row, int column) {
  return table.index(row, column).data().toString();
}

QString header(const ComparisonTableModel& table, int column) {
  return table.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
}

QString modelPath(const char* name) {
  return QString::fromStdString((loupe::test::modelsDir() / name / "model.tflite").string());
}

QStringList statuses(const ComparisonTableModel& model) {
  QStringList result;
  for (int row = 0; row < model.rowCount(); ++row) result << model.status(row);
  return result;
}

}  // namespace

class CompareViewTest : public QObject {
  Q_OBJECT

  // Opens `model`, sets B and compares; the view, or nullptr on a failure.
  loupe::views::CompareView* compare(MainWindow& window, const QString& model,
                                     const QString& targetB, const QString& plannerB = {}) {
    window.show();
    if (!window.openModel(model) || !window.waitUntilIdle()) return nullptr;
    auto* view = window.compareView();
    const int index = view->targetBSelector()->findData(targetB);
    if (index < 0) return nullptr;
    view->targetBSelector()->setCurrentIndex(index);
    if (!plannerB.isEmpty()) view->plannerBSelector()->setCurrentText(plannerB);
    window.showView("compare");
    view->compare();
    if (!window.waitUntilIdle()) return nullptr;
    return view;
  }

 private slots:
  void cpuAgainstEthosUMarksTheMergedOperators() {
    MainWindow window(quietOptions());
    auto* view = compare(window, modelPath("kws_ref_model"), kEthosU128);
    QVERIFY(view);
    QCOMPARE(window.currentViewName(), "compare");
    const ComparisonTableModel& table = *view->tableModel();
    QCOMPARE(table.rowCount(), window.document()->operatorCount());
    int toNpu = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
      const QString target = table.index(row, ComparisonTableModel::TargetColumn).data().toString();
      if (target == QStringLiteral("c \u2192 ethos-u")) {
        ++toNpu;
        QCOMPARE(table.status(row), "merged");
      }
    }
    QCOMPARE(toNpu, 13);
    QVERIFY(!statuses(table).contains("added") && !statuses(table).contains("removed"));
    QVERIFY2(view->summaryText().contains("13 changed (13 merged into one operator)"),
             qPrintable(view->summaryText()));
    // Both memory plans, on one byte scale.
    QVERIFY(!view->chartA()->planLayout().isEmpty());
    QVERIFY(!view->chartB()->planLayout().isEmpty());
    QVERIFY(view->chartA()->planLayout().totalBytes > 0);
    // Both graphs: each merged operator marked in A's and in B's, B's
    // coloured as the NPU runs them.
    QVERIFY(view->graphA() && view->graphB());
    QCOMPARE(view->documentB()->operatorCount(), window.document()->operatorCount());
    int marked = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
      if (table.status(row) != "merged") continue;
      for (int op : view->comparison()->modelOperatorsOfA(row)) {
        QCOMPARE(view->graphA()->nodeOfOperator(op)->mark(), "merged");
        QCOMPARE(view->graphB()->nodeOfOperator(op)->mark(), "merged");
        QCOMPARE(view->graphB()->nodeOfOperator(op)->node().target, "ethos-u");
        QCOMPARE(view->graphA()->nodeOfOperator(op)->node().target, "c");
        ++marked;
      }
    }
    QVERIFY(marked >= toNpu);
  }

  // Measured on the host: every operator of A and B has a time, the
  // summary gives the whole runs with B/A, and the graphs can be coloured
  // by it.
  void measuringRunsBothAndComparesTheirTimes() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    auto* view = window.compareView();
    const int host = view->measureSelector()->findData("host");
    QVERIFY(host > 0);
    QCOMPARE(view->measureSelector()->itemData(0).toString(), QString());
    view->measureSelector()->setCurrentIndex(host);
    view->targetBSelector()->setCurrentIndex(view->targetBSelector()->findData(kEthosU128));
    view->compare();
    QVERIFY(window.waitUntilIdle(300000));
    QVERIFY2(view->comparison()->error().isEmpty(), qPrintable(view->comparison()->error()));
    QVERIFY2(view->summaryText().contains("measured on host"), qPrintable(view->summaryText()));
    const ComparisonTableModel& table = *view->tableModel();
    QCOMPARE(table.headerData(ComparisonTableModel::TimeAColumn, Qt::Horizontal, Qt::DisplayRole)
                 .toString(),
             "Time A (ns)");
    for (int row = 0; row < table.rowCount(); ++row) {
      QVERIFY(!table.index(row, ComparisonTableModel::TimeAColumn).data().toString().isEmpty());
      QVERIFY(!table.index(row, ComparisonTableModel::TimeDeltaColumn).data().toString().isEmpty());
    }
    QCOMPARE(view->comparison()->operatorTimesA().size(),
             static_cast<std::size_t>(window.document()->operatorCount()));
    QVERIFY(view->comparison()->operatorTimesA().front() > 0);
    QVERIFY(view->graphA()->setColourBy(loupe::views::GraphView::ColourBy::Time));
    QVERIFY(view->graphB()->setColourBy(loupe::views::GraphView::ColourBy::Time));
  }

  void aModelAgainstItselfShowsNoDifference() {
    MainWindow window(quietOptions());
    auto* view = compare(window, modelPath("ic_resnet8_int8"), "c");
    QVERIFY(view);
    QVERIFY2(view->summaryText().contains("no differences"), qPrintable(view->summaryText()));
    QCOMPARE(statuses(*view->tableModel()).count("same"), view->tableModel()->rowCount());
    QCOMPARE(view->chartA()->planLayout().totalBytes, view->chartB()->planLayout().totalBytes);
    for (int op = 0; op < window.document()->operatorCount(); ++op) {
      QCOMPARE(view->graphA()->nodeOfOperator(op)->mark(), QString());
      QCOMPARE(view->graphB()->nodeOfOperator(op)->mark(), QString());
    }
  }

  void twoPlannersDifferOnlyInRam() {
    MainWindow window(quietOptions());
    auto* view = compare(window, modelPath("ad01_int8"), "c", "greedy_by_size");
    QVERIFY(view);
    QCOMPARE(statuses(*view->tableModel()).count("same"), view->tableModel()->rowCount());
    QVERIFY(view->chartB()->planLayout().totalBytes > view->chartA()->planLayout().totalBytes);
    QVERIFY2(view->summaryText().contains("RAM (workspace)"), qPrintable(view->summaryText()));
    QVERIFY(!view->summaryText().contains("no differences"));
  }

  void anotherModelFilePairsItsLayers() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("hello_world_int8")));
    QVERIFY(window.waitUntilIdle());
    auto* view = window.compareView();
    QVERIFY(!view->setModelB("/nonexistent/model.tflite").isEmpty());
    QCOMPARE(view->setModelB(modelPath("hello_world_float")), QString());
    view->compare();
    QVERIFY(window.waitUntilIdle());
    const QStringList rows = statuses(*view->tableModel());
    QVERIFY(rows.contains("changed"));
    QVERIFY(!rows.contains("added") && !rows.contains("removed"));
  }

  // CPU vs NPU: kws on the M55 of qemu-mps3-an547 (A, measured
  // instructions) against the Ethos-U55-128 (B, estimated NPU cycles): every
  // operator of the region has both figures and their ratio, the columns
  // say which unit they hold, and B's figures add up to the region's NPU
  // cycles.
  void cpuInstructionsAgainstEstimatedNpuCycles() {
    MainWindow window(quietOptions());
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    auto* view = window.compareView();
    const int board = view->measureSelector()->findData("qemu-mps3-an547");
    if (board < 0) QSKIP("qemu-mps3-an547 cannot be run here (QEMU or the Arm GCC missing)");
    view->measureSelector()->setCurrentIndex(board);
    QCOMPARE(view->setTargetB(kEthosU128), QString());
    window.showView("compare");
    view->compare();
    QVERIFY(window.waitUntilIdle(1200000));
    QVERIFY2(view->comparison()->error().isEmpty(), qPrintable(view->comparison()->error()));
    const ComparisonTableModel& table = *view->tableModel();
    const auto* comparison = view->comparison();
    QCOMPARE(comparison->diff().timeUnit, "instructions");
    QCOMPARE(header(table, ComparisonTableModel::CostAColumn), "A measured\ninstructions");
    // Every operator, SOFTMAX too, on the NPU: B is estimated throughout.
    QCOMPARE(header(table, ComparisonTableModel::CostBColumn), "B estimated\nNPU cycles");
    QCOMPARE(header(table, ComparisonTableModel::CostRatioColumn), "B / A\n(units differ)");
    const auto& costs = comparison->rowCosts();
    QCOMPARE(costs.size(), table.rowCount());
    const auto& npuCycles = comparison->mappingB().npuCyclesOfModelOperator;
    qint64 npuTotal = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
      const QList<int> ops = comparison->modelOperatorsOfA(row);
      QCOMPARE(ops.size(), 1);
      const int op = ops.front();
      QVERIFY(costs[row].a && costs[row].b);
      QCOMPARE(costs[row].a->kind, loupe::models::CostKind::Measured);
      QCOMPARE(costs[row].a->value, comparison->operatorTimesA().at(op));
      QCOMPARE(cell(table, row, ComparisonTableModel::CostAColumn),
               loupe::models::groupedNumber(std::llround(costs[row].a->value)));
      // The RESHAPE is a view of its input's bytes on both: no call, no
      // operation, 0 on each side and no ratio.
      const bool view = window.document()->graph().operators.at(op).typeName() == "RESHAPE";
      QCOMPARE(costs[row].a->value > 0, !view);
      QCOMPARE(cell(table, row, ComparisonTableModel::CostRatioColumn),
               view ? QStringLiteral("\u2013")
                    : QStringLiteral("\u00d7") +
                          loupe::models::costRatioText(costs[row].b->value / costs[row].a->value));
      QCOMPARE(costs[row].b->kind, loupe::models::CostKind::EstimatedNpuCycles);
      QVERIFY(npuCycles.value(op));
      QCOMPARE(costs[row].b->value, static_cast<double>(*npuCycles.value(op)));
      QCOMPARE(costs[row].b->value > 0, !view);
      // One unit in B's column: no unit beside each figure.
      QCOMPARE(cell(table, row, ComparisonTableModel::CostBColumn),
               loupe::models::groupedNumber(*npuCycles.value(op)));
      npuTotal += *npuCycles.value(op);
    }
    QCOMPARE(npuTotal, regionEstimate(comparison->mappingB()).computeCycles);
    // Totalled per pair of units, never across them.
    bool cpuAgainstNpu = false;
    for (const loupe::models::CostTotals& t : comparison->costTotals()) {
      if (t.a != loupe::models::CostKind::Measured ||
          t.b != loupe::models::CostKind::EstimatedNpuCycles) {
        continue;
      }
      cpuAgainstNpu = true;
      QCOMPARE(t.modelOperators, QList<int>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
      QCOMPARE(std::llround(t.totalB), npuTotal);
    }
    QVERIFY(cpuAgainstNpu);
    const QString summary = view->summaryText();
    QVERIFY2(summary.contains("ops 0\u201312: A ") && summary.contains("measured instructions") &&
                 summary.contains("estimated NPU cycles (B/A") &&
                 summary.contains("not the same unit"),
             qPrintable(summary));
    // The whole run measured on the board says B's NPU operators ran on
    // the functional model there.
    QVERIFY2(summary.contains("measured on qemu-mps3-an547") &&
                 summary.contains("(instructions; B ran its NPU operators on Loupe's functional "
                                  "model on the CPU, not NPU time)"),
             qPrintable(summary));
    // The box shows what B compiled for.
    QCOMPARE(view->targetBSelector()->currentText(), "Ethos-U ethos-u55-128 + CPU");
  }

  // One configuration against another: estimated NPU cycles on both sides,
  // each side's adding up to its own region's.
  void twoConfigurationsCompareTheirEstimatedCycles() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.setTargetString(kEthosU128));
    auto* view = compare(window, modelPath("kws_ref_model"), kEthosU256);
    QVERIFY(view);
    const ComparisonTableModel& table = *view->tableModel();
    QCOMPARE(header(table, ComparisonTableModel::CostAColumn), "A estimated\nNPU cycles");
    QCOMPARE(header(table, ComparisonTableModel::CostBColumn), "B estimated\nNPU cycles");
    QCOMPARE(header(table, ComparisonTableModel::CostRatioColumn), "B / A");
    const auto& costs = view->comparison()->rowCosts();
    double a = 0, b = 0;
    int both = 0;
    for (int row = 0; row < table.rowCount(); ++row) {
      QVERIFY(costs[row].a && costs[row].b);  // every operator on the NPU on both sides
      ++both;
      a += costs[row].a->value;
      b += costs[row].b->value;
      QCOMPARE(cell(table, row, ComparisonTableModel::CostBColumn),
               loupe::models::groupedNumber(std::llround(costs[row].b->value)));
      if (costs[row].a->value > 0) {
        QCOMPARE(cell(table, row, ComparisonTableModel::CostRatioColumn),
                 QStringLiteral("\u00d7") +
                     loupe::models::costRatioText(costs[row].b->value / costs[row].a->value));
      }
    }
    QCOMPARE(both, 13);
    QCOMPARE(std::llround(a), regionEstimate(view->comparison()->mappingA()).computeCycles);
    QCOMPARE(std::llround(b), regionEstimate(view->comparison()->mappingB()).computeCycles);
    QVERIFY2(view->summaryText().contains("estimated NPU cycles (\u00d7"),
             qPrintable(view->summaryText()));
    // B's graph tags its operators with B's figures.
    QCOMPARE(view->graphB()->nodeOfOperator(0)->npuCycles(),
             view->comparison()->mappingB().npuCyclesOfModelOperator.value(0));
  }

  // Target B shows the choice B compiles, canonical however it was given:
  // a short target list, or one typed into the box.
  void targetBShowsTheCanonicalChoice() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(modelPath("kws_ref_model")));
    QVERIFY(window.waitUntilIdle());
    auto* view = window.compareView();
    QComboBox* box = view->targetBSelector();
    QCOMPARE(view->setTargetB("ethos-u, c"), QString());
    QCOMPARE(box->currentText(), "Ethos-U ethos-u55-128 + CPU");
    QCOMPARE(view->targetBString(), kEthosU128);
    // Typed, then Enter.
    box->lineEdit()->clear();
    QTest::keyClicks(box->lineEdit(), "ethos-u -accelerator_config=ethos-u55-256,c");
    QTest::keyClick(box->lineEdit(), Qt::Key_Return);
    QCOMPARE(box->currentText(), "Ethos-U ethos-u55-256 + CPU");
    QCOMPARE(view->targetBString(), kEthosU256);
    // No choice names it: the canonical string itself, once.
    const int items = box->count();
    QCOMPARE(view->setTargetB("ethos-u -accelerator_config=ethos-u55-64"), QString());
    QCOMPARE(box->currentText(), "ethos-u -accelerator_config=ethos-u55-64");
    QCOMPARE(view->setTargetB("ethos-u  -accelerator_config=ethos-u55-64"), QString());
    QCOMPARE(box->count(), items + 1);
    // Not a target list: refused, the box as it was.
    QVERIFY(!view->setTargetB("gpu").isEmpty());
    QCOMPARE(view->targetBString(), "ethos-u -accelerator_config=ethos-u55-64");
    // Typed and compared: B compiles what the box then shows.
    box->setEditText("c");
    view->compare();
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(box->currentText(), "CPU only (c)");
    QVERIFY2(view->summaryText().contains("B: model \u00b7 CPU only (c)"),
             qPrintable(view->summaryText()));
  }

  void aRowSelectsItsOperator() {
    MainWindow window(quietOptions());
    auto* view = compare(window, modelPath("kws_ref_model"), kEthosU128);
    QVERIFY(view);
    view->table()->selectRow(3);
    QCOMPARE(window.document()->currentOperator(),
             view->comparison()->modelOperatorsOfA(3).value(0, -1));
    QVERIFY(window.document()->currentOperator() >= 0);
    // B's graph follows: its corresponding operator is selected there.
    // (A merged pair: the same operator of the model, inside B's Ethos-U one.)
    QCOMPARE(view->documentB()->currentOperator(), window.document()->currentOperator());
    QVERIFY(
        view->comparison()->modelOperatorsOfB(3).contains(window.document()->currentOperator()));
    window.document()->setCurrentOperator(7);
    QCOMPARE(view->documentB()->currentOperator(), 7);
    QVERIFY(view->graphB()->nodeOfOperator(7)->isCurrent());
  }
};

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
