// The Compare tab: kws on the CPU against kws on the Ethos-U marks the
// operators the NPU takes in the table and both graphs and shows both memory
// plans; a model against itself shows no difference; measured on the host,
// every operator has a time on both sides; two planners differ only in RAM;
// another model file pairs its layers; a row selects its operator everywhere.
#include <QComboBox>
#include <QTableView>
#include <QtTest>

#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/compilation_comparison.h"
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
    QCOMPARE(toNpu, 12);
    QVERIFY(!statuses(table).contains("added") && !statuses(table).contains("removed"));
    QVERIFY2(view->summaryText().contains("12 changed (12 merged into one operator)"),
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
