// The main window driven as a user drives it: open a model, click an
// operator, open a bad file, double-click a problem, drop a file.
#include <QDockWidget>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/bundled_model.h"
#include "gui/main_window.h"
#include "gui/recent_files.h"
#include "gui_test_files.h"
#include "models/model_document.h"
#include "models/operator_properties_model.h"
#include "models/operator_table_model.h"
#include "models/problem_list_model.h"
#include "quiet_main_window.h"
#include "views/graph_ir_view.h"
#include "views/operator_table_view.h"
#include "views/problems_view.h"
#include "views/properties_view.h"

using loupe::gui::MainWindow;
using loupe::models::OperatorPropertiesModel;
using loupe::models::OperatorTableModel;
using loupe::models::ProblemListModel;

namespace {

QStringList typesShown(const QTableView* table) {
  QStringList types;
  for (int row = 0; row < table->model()->rowCount(); ++row) {
    types << table->model()->index(row, OperatorTableModel::TypeColumn).data().toString();
  }
  return types;
}

QString statusText(const MainWindow& window) {
  QStringList texts;
  for (const QLabel* label : window.statusBar()->findChildren<QLabel*>()) texts << label->text();
  return texts.join(" | ");
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    // Keep the recent-files test away from the user's real settings.
    QVERIFY(settingsDir_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir_.path());
    QCoreApplication::setOrganizationName("LoupeTest");
    QCoreApplication::setApplicationName("loupe_gui_test");
  }

  void opensKwsIntoTheOperatorsTable() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    auto* table = window.findChild<loupe::views::OperatorTableView*>("operatorTable");
    QVERIFY(table);
    QCOMPARE(table->model()->rowCount(), 13);
    QCOMPARE(typesShown(table), loupe::test::kwsOperatorTypes());
    QCOMPARE(window.currentViewName(), "graph");
    QVERIFY(window.windowTitle().startsWith("model"));
    const QString status = statusText(window);
    QVERIFY2(status.contains("13 operators"), qPrintable(status));
    QVERIFY(status.contains("2,664,780 MACs"));
    QVERIFY(status.contains("24,376 parameter bytes"));
  }

  void theBundledModelOpensFromTheResources() {
    MainWindow window(quietOptions());
    QVERIFY(window.openModel(loupe::gui::bundledModelPath()));
    QCOMPARE(window.document()->operatorCount(), 13);
    QVERIFY(statusText(window).contains("bundled example"));
  }

  void selectingARowFillsProperties() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    auto* table = window.findChild<loupe::views::OperatorTableView*>("operatorTable");
    auto* properties = window.findChild<loupe::views::PropertiesView*>("propertiesView");
    QVERIFY(table && properties);
    auto* model = qobject_cast<OperatorPropertiesModel*>(properties->model());
    QVERIFY(model);
    QCOMPARE(model->value("Operator", "Type"), "CONV_2D");  // the first, selected on load

    // Click the FULLY_CONNECTED row.
    const QRect cell = table->visualRect(table->model()->index(11, OperatorTableModel::TypeColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(window.document()->currentOperator(), 11);
    QCOMPARE(model->value("Operator", "Type"), "FULLY_CONNECTED");
    QCOMPARE(model->value("Inputs", "input 0"), "%32  int8[1,64]");
    QCOMPARE(model->value("Inputs", "input 1"), "%c16  int8[12,64]");
    QCOMPARE(model->value("Inputs", "input 2"), "%c1  int32[12]");
    QCOMPARE(model->value("Outputs", "output 0"), "%33  int8[1,12]");
    QCOMPARE(model->value("Cost", "MACs"), "768");
    // Every operand is expanded to show its shape, dtype, quantisation, bytes.
    // (The Inputs section follows Operator, Placement and Attributes.)
    const auto found =
        model->match(model->index(0, 0), Qt::DisplayRole, "Inputs", 1, Qt::MatchExactly);
    QCOMPARE(found.size(), 1);
    const QModelIndex inputs = found.front();
    QCOMPARE(inputs.row(), 3);
    QVERIFY(properties->isExpanded(model->index(0, 0, inputs)));

    auto* dock = window.findChild<QDockWidget*>("propertiesDock");
    QVERIFY(dock->windowTitle().contains("op 11 FULLY_CONNECTED"));

    // The Graph IR view marks the same operator.
    auto* ir = window.findChild<loupe::views::GraphIrView*>("graphIrView");
    const int line = ir->lineOfOperator(11);
    QVERIFY(line > 0);
    QVERIFY(ir->text(line).contains("= FULLY_CONNECTED(%32, %c16, %c1)"));
    QVERIFY(ir->markersAtLine(line) != 0);
  }

  void sortingKeepsTheSelectedOperator() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    auto* table = window.findChild<loupe::views::OperatorTableView*>("operatorTable");
    window.document()->setCurrentOperator(9);
    table->sortByColumn(OperatorTableModel::MacsColumn, Qt::DescendingOrder);
    QCOMPARE(window.document()->currentOperator(), 9);
    // Heaviest first: a 512,000-MAC CONV_2D.
    QCOMPARE(table->model()->index(0, OperatorTableModel::MacsColumn).data().toString(), "512,000");
    const int row = table->currentIndex().row();
    QCOMPARE(table->operatorAtRow(row), 9);
  }

  void clearingAndReselectingAnOperatorHighlightsItsRowAgain() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    auto* table = window.findChild<loupe::views::OperatorTableView*>("operatorTable");
    window.document()->setCurrentOperator(5);
    window.document()->setCurrentOperator(-1);
    QVERIFY(!table->selectionModel()->hasSelection());
    window.document()->setCurrentOperator(5);
    QVERIFY(table->selectionModel()->isRowSelected(5));
  }

  void theGraphIrTabShowsThePrintedGraph() {
    MainWindow window(quietOptions());
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.showView("ir"));
    QCOMPARE(window.currentViewName(), "ir");
    auto* ir = window.findChild<loupe::views::GraphIrView*>("graphIrView");
    QCOMPARE(ir->text(), window.document()->graphIrText());
    QVERIFY(ir->text().startsWith("graph model\n"));
    QVERIFY(ir->isReadOnly());
    QVERIFY(!window.showView("no-such-view"));
  }

  void aCorruptFileGoesToProblemsAndKeepsTheModel() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    window.document()->setCurrentOperator(3);
    const QString title = window.windowTitle();

    QTemporaryDir dir;
    const QString corrupt = loupe::test::writeCorruptModel(dir);
    QVERIFY(!window.openModel(corrupt));

    auto* problems = window.findChild<loupe::views::ProblemsView*>("problemsView");
    const QModelIndex first = problems->model()->index(0, ProblemListModel::DescriptionColumn);
    QCOMPARE(first.data(ProblemListModel::SeverityRole).toInt(),
             static_cast<int>(ProblemListModel::Severity::Error));
    QVERIFY2(first.data().toString().startsWith("corrupt.tflite: "),
             qPrintable(first.data().toString()));
    // "Problems (1 error)" or, with unsupported operators, "(1 error, N warnings)".
    const QString problemsTitle = window.findChild<QDockWidget*>("problemsDock")->windowTitle();
    QVERIFY2(problemsTitle.contains(QRegularExpression("\\(1 error[,)]")),
             qPrintable(problemsTitle));
    QVERIFY(window.findChild<QDockWidget*>("problemsDock")->isVisible());

    // Still the same model, usable: 13 rows, same selection, selectable rows.
    auto* table = window.findChild<loupe::views::OperatorTableView*>("operatorTable");
    QCOMPARE(table->model()->rowCount(), 13);
    QCOMPARE(typesShown(table), loupe::test::kwsOperatorTypes());
    QCOMPARE(window.windowTitle(), title);
    QCOMPARE(window.document()->currentOperator(), 3);
    table->selectRow(12);
    auto* properties = qobject_cast<OperatorPropertiesModel*>(
        window.findChild<loupe::views::PropertiesView*>("propertiesView")->model());
    QCOMPARE(properties->value("Operator", "Type"), "SOFTMAX");
    if (qEnvironmentVariableIsSet("LOUPE_GUI_TEST_SHOTS")) {
      window.resize(1400, 900);
      QTest::qWait(50);
      window.grab().save(qEnvironmentVariable("LOUPE_GUI_TEST_SHOTS") + "/after-corrupt.png");
    }
  }

  // With nothing in it the Problems dock is a few lines high, not a
  // quarter of the window; the first problem makes it roomy.
  void anEmptyProblemsDockStaysLowUntilThereIsAProblem() {
    MainWindow window(quietOptions());
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    auto* dock = window.findChild<QDockWidget*>("problemsDock");
    QVERIFY2(dock->height() < window.height() / 5, qPrintable(QString::number(dock->height())));
    QTemporaryDir dir;
    QVERIFY(!window.openModel(loupe::test::writeCorruptModel(dir)));
    QTRY_VERIFY2(dock->height() >= 200, qPrintable(QString::number(dock->height())));
  }

  void doubleClickingAProblemSelectsItsOperator() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // kws has unsupported operators today; as kernels land it may have none,
    // so fall back to a model whose one custom operator never runs.
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QTemporaryDir dir;
    if (window.document()->supportProblems().empty()) {
      QVERIFY(window.openModel(loupe::test::writeUnknownCustomOperatorModel(dir)));
    }
    const int target = window.document()->supportProblems().back().operatorIndex;
    window.document()->setCurrentOperator(target == 0 ? -1 : 0);
    window.showView("ir");

    auto* problems = window.findChild<loupe::views::ProblemsView*>("problemsView");
    const auto matches = problems->model()->match(problems->model()->index(0, 0),
                                                  ProblemListModel::OperatorIndexRole, target);
    QCOMPARE(matches.size(), 1);
    problems->scrollTo(matches[0]);
    // A real double-click is press, release, then the double-click event;
    // QTest's mouseDClick on a widget sends only the last.
    const QPoint centre = problems->visualRect(matches[0]).center();
    QTest::mouseClick(problems->viewport(), Qt::LeftButton, {}, centre);
    QVERIFY(window.document()->currentOperator() != target);  // one click only selects the entry
    QTest::mouseDClick(problems->viewport(), Qt::LeftButton, {}, centre);
    QCOMPARE(window.document()->currentOperator(), target);
    auto* table = window.findChild<loupe::views::OperatorTableView*>("operatorTable");
    QCOMPARE(table->operatorAtRow(table->currentIndex().row()), target);
  }

  void droppingATfliteFileOpensIt() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openModel(loupe::test::velaModelPath()));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(loupe::test::kwsModelPath())});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QTRY_COMPARE(window.document()->operatorCount(), 13);

    // Anything else is refused.
    QMimeData text;
    text.setUrls({QUrl::fromLocalFile("/tmp/notes.txt")});
    QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    refused.setAccepted(false);
    QApplication::sendEvent(&window, &refused);
    QVERIFY(!refused.isAccepted());
  }

  void recentFilesAreNewestFirstWithoutDuplicates() {
    {
      loupe::gui::RecentFiles recent(true);
      recent.clear();
      recent.add("/models/a.tflite");
      recent.add("/models/b.tflite");
      recent.add("/models/a.tflite");
    }
    loupe::gui::RecentFiles reread(true);  // from QSettings
    QCOMPARE(reread.paths(), QStringList({"/models/a.tflite", "/models/b.tflite"}));
    for (int i = 0; i < 20; ++i) reread.add(QString("/models/%1.tflite").arg(i));
    QCOMPARE(reread.paths().size(), loupe::gui::RecentFiles::kMaximum);
    QCOMPARE(reread.paths().front(), "/models/19.tflite");
  }

  void aWindowRemembersItsLayout() {
    {
      MainWindow window(MainWindow::Options{
          .interactive = false, .persistSettings = true, .registries = loupe::test::registries()});
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      window.findChild<QDockWidget*>("problemsDock")->hide();
      window.close();
    }
    MainWindow again(MainWindow::Options{
        .interactive = false, .persistSettings = true, .registries = loupe::test::registries()});
    again.show();
    QVERIFY(!again.findChild<QDockWidget*>("problemsDock")->isVisible());
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
