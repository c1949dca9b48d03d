// Run on board from the GUI: kws_ref_model on the host platform through the
// model layer (outputs checked against the reference interpreter, one profile
// row per operator call), the Profile dock selecting operators, and a
// deployment that fails (a serial port that does not exist) reported in
// Problems with the model still open and the window still usable.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QtTest>

#include <cmath>

#include "codegen/model_compiler.h"
#include "deploy/mac_peak.h"
#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/board_fit_check.h"
#include "models/board_run.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/problem_list_model.h"
#include "models/profile_table_model.h"
#include "models/target_choice.h"
#include "passes/pass_manager.h"
#include "quiet_main_window.h"
#include "test_data.h"
#include "views/debug_tensor_view.h"
#include "views/deploy_panel.h"
#include "views/graph_node_item.h"
#include "views/graph_view.h"
#include "views/memory_plan_view.h"
#include "views/profile_view.h"

using loupe::gui::MainWindow;
using loupe::models::BoardFitCheck;
using loupe::models::BoardRun;
using loupe::models::ModelDocument;
using loupe::models::ProblemListModel;
using loupe::models::ProfileTableModel;

namespace {

constexpr int kRunTimeoutMs = 600000;  // a cold firmware build on a busy machine

// The operator calls of the compiled model, counted without the GUI.
int compiledCallCount(const ModelDocument& document) {
  loupe::passes::StageTimeline timeline;
  const auto model =
      loupe::codegen::compileToC(loupe::passes::runGraphPipeline(document.graph(), timeline), {});
  return static_cast<int>(model.calls.size());
}

}  // namespace

class BoardRunTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir cacheDir_;

 private slots:
  void initTestCase() {
    // Firmware builds go to a cache of this run's own: a user's
    // ~/.cache/loupe (stale, shared, read-only) plays no part in the result.
    QVERIFY(cacheDir_.isValid());
    qputenv("XDG_CACHE_HOME", cacheDir_.path().toUtf8());
  }

  void kwsOnHostAgreesWithTheReference() {
    ModelDocument document;
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    ProfileTableModel table(&run);
    QStringList lines;
    connect(&run, &BoardRun::progress, this, [&lines](const QString& line) { lines << line; });
    // The golden sets beside the model, real inputs first; the first is the default.
    QCOMPARE(run.goldenSetNames(),
             QStringList({"real1", "real2", "real3", "seed1", "seed2", "seed3"}));
    QCOMPARE(run.goldenSet(), "real1");
    QVERIFY(run.inputsDescription().startsWith("golden set real1"));
    QVERIFY(!run.setGoldenSet("real9"));
    QVERIFY(run.setGoldenSet("real2"));

    QVERIFY(run.start({}));  // host by default
    QVERIFY(run.isRunning());
    QVERIFY(!run.start({}));  // one run at a time
    QVERIFY(run.waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(run.state() == BoardRun::State::Succeeded, qPrintable(run.errorMessage()));
    QCOMPARE(run.platform(), "host");

    // Each output against the reference interpreter, then against TFLite's.
    const auto outputs = static_cast<qsizetype>(document.graph().outputs.size());
    QCOMPARE(run.outputChecks().size(), 2 * outputs);
    QVERIFY(run.outputsAgree());
    QVERIFY(run.outputChecks().front().message.contains("reference interpreter (bit-exact)"));
    QCOMPARE(run.outputChecks()[outputs].message, "output 0 equals TFLite's (bit-exact)");
    for (const auto& check : run.outputChecks()) QVERIFY(check.bitExact);

    const int calls = compiledCallCount(document);
    QVERIFY(calls > 0);
    QCOMPARE(run.profileRows().size(), calls);
    QCOMPARE(table.rowCount(), calls);
    QCOMPARE(run.profileUnit(), "ns");
    QVERIFY(run.profileTotal() > 0);
    double percent = 0;
    for (const auto& row : run.profileRows()) {
      QVERIFY(!row.modelOperators.isEmpty());
      for (int op : row.modelOperators) QVERIFY(op >= 0 && op < document.operatorCount());
      percent += 100.0 * row.time.time / run.profileTotal();
    }
    QVERIFY(percent > 0 && percent <= 100.0 + 1e-6);
    QCOMPARE(table.headerData(ProfileTableModel::TimeColumn, Qt::Horizontal).toString(),
             "Time (ns)");
    QCOMPARE(table.index(0, ProfileTableModel::TypeColumn).data().toString(),
             QString::fromStdString(run.profileRows().front().time.type));
    // Nanoseconds on the host: no MAC peak to hold them against.
    QCOMPARE(run.profilePeak(), 0.0);
    QCOMPARE(table.index(0, ProfileTableModel::PeakColumn).data().toString(), QString());
    QCOMPARE(run.operatorTimes().size(), static_cast<std::size_t>(document.operatorCount()));

    // The stages were reported as they happened.
    QVERIFY(lines.filter("[compile]").size() == 1);
    QVERIFY(!lines.filter("[connect]").isEmpty() || !lines.filter("[flash]").isEmpty());
    QVERIFY(!lines.filter("bit-exact").isEmpty());
  }

  void debugOnBoardMarksEveryOperatorAgainstTflmsDump() {
    // Debug on board in the window, kws on the host with golden set real1:
    // every tensor comes back, each operator is marked exact against TFLite
    // Micro's dump, and the Debug dock shows the selected operator's output.
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    auto* panel = window.deployPanel();
    QVERIFY(panel->selectPlatform("host"));
    QVERIFY(panel->debugButton()->isEnabled());
    panel->debugButton()->click();
    QVERIFY(window.boardRun()->waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(window.boardRun()->state() == BoardRun::State::Succeeded,
             qPrintable(window.boardRun()->errorMessage()));
    const auto& findings = window.boardRun()->debugFindings();
    QVERIFY(findings.has_value());
    QCOMPARE(findings->expectedName, "TFLite Micro's dump (real1)");
    QCOMPARE(findings->firstDiffering, -1);
    QCOMPARE(findings->marks.size(), window.document()->operatorCount());
    for (const QString& mark : findings->marks) QCOMPARE(mark, "exact");
    QVERIFY2(findings->summary.startsWith("every tensor agrees: 13 compared with"),
             qPrintable(findings->summary));
    // The graph's nodes carry the marks.
    auto* node = window.graphView()->nodeOfOperator(2);
    QVERIFY(node);
    QCOMPARE(node->mark(), "exact");
    // The Debug dock: the selected operator's output, equal element for element.
    window.document()->setCurrentOperator(2);
    auto* debugView = window.debugTensorView();
    QVERIFY2(debugView->tensorLabel()->text().contains("Equal, element for element."),
             qPrintable(debugView->tensorLabel()->text()));
    QCOMPARE(debugView->differingElements(), 0);
    // A tile per channel, each its 25 rows and 5 columns.
    QCOMPARE(debugView->tiles().size(), 64);
    QCOMPARE(debugView->tiles().front().size(), QSize(5, 25));
    // A plain run afterwards clears the marks.
    panel->runButton()->click();
    QVERIFY(window.boardRun()->waitUntilIdle(kRunTimeoutMs));
    QVERIFY(!window.boardRun()->debugFindings().has_value());
    QCOMPARE(node->mark(), "");
  }

  void theProfileHoldsEachOperatorAgainstTheM55sPeak() {
    // kws on the Cortex-M55 (16 int8 MACs per VMLADAVA): each operator with
    // MACs gets MACs / (instructions x 16) in percent, and the bar column
    // shows it; SOFTMAX's 12 MACs too, RESHAPE (no call) not at all.
    ModelDocument document;
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    ProfileTableModel table(&run);
    BoardRun::Request request;
    request.platform = "qemu-mps3-an547";
    QVERIFY(run.start(request));
    QVERIFY(run.waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(run.state() == BoardRun::State::Succeeded, qPrintable(run.errorMessage()));
    QCOMPARE(run.profileUnit(), "instructions");
    QCOMPARE(run.profilePeak(), 16.0);
    QCOMPARE(table.headerData(ProfileTableModel::PeakColumn, Qt::Horizontal).toString(),
             "% of peak");
    int convolutions = 0;
    for (int r = 0; r < table.rowCount(); ++r) {
      const auto& row = run.profileRows()[r];
      const auto percent = run.percentOfPeak(row);
      // Blank for the pool's and the SOFTMAX's MACs, which are sums.
      QCOMPARE(percent.has_value(),
               row.time.macs > 0 && loupe::deploy::isMacKernelOperator(row.time.type));
      if (!percent) continue;
      const double expected = 100.0 * static_cast<double>(row.time.macs) / (row.time.time * 16.0);
      QVERIFY(std::abs(*percent - expected) < 1e-9);
      QVERIFY(*percent > 0 && *percent <= 100);
      QCOMPARE(table.index(r, ProfileTableModel::PeakColumn).data().toString(),
               QString("%1 %").arg(expected, 0, 'f', 1));
      QCOMPARE(table.index(r, ProfileTableModel::PeakColumn)
                   .data(ProfileTableModel::SortRole)
                   .toDouble(),
               *percent);
      convolutions += row.time.type == "CONV_2D";
    }
    QCOMPARE(convolutions, 5);
  }

  void kwsOnTheMicrobitRunsWithThePlanThatFits() {
    // The plain plan is 5 KB too large for the micro:bit's 16 KB; Run on
    // board plans with overlapped outputs, every board's default, as loupec
    // run does, and says so.
    ModelDocument document;
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    QStringList lines;
    connect(&run, &BoardRun::progress, this, [&lines](const QString& line) { lines << line; });
    BoardRun::Request request;
    request.platform = "qemu-microbit";
    QVERIFY(run.start(request));
    QVERIFY(run.waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(run.state() == BoardRun::State::Succeeded, qPrintable(run.errorMessage()));
    QVERIFY(run.outputsAgree());
    QVERIFY2(run.planNote().startsWith("fits with overlapped outputs, every board's default: "),
             qPrintable(run.planNote()));
    QVERIFY2(!lines.filter("[plan] fits with overlapped outputs").isEmpty(),
             qPrintable(lines.join('\n')));
  }

  void theDeployPanelSaysWhichPlanTheBoardNeedsBeforeTheBuild() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    auto* panel = window.deployPanel();
    const BoardFitCheck* fit = panel->fitCheck();
    const auto checked = [fit](const char* platform) {
      return fit->platform() == platform && fit->state() != BoardFitCheck::State::Checking;
    };
    // kws's plain plan is 5 KB too large for the micro:bit's 16 KB.
    QVERIFY(panel->selectPlatform("qemu-microbit"));
    QTRY_VERIFY_WITH_TIMEOUT(checked("qemu-microbit"), kRunTimeoutMs);
    QCOMPARE(fit->state(), BoardFitCheck::State::Fits);
    QVERIFY(fit->overlapOutputs());
    QVERIFY(!fit->patches());
    QVERIFY2(
        panel->fitLabel()->text().contains("fits with overlapped outputs, every board's default: "),
        qPrintable(panel->fitLabel()->text()));
    QCOMPARE(window.boardRun()->state(), BoardRun::State::Idle);  // nothing was built
    // The views are planned for the board as the run will be: its plan,
    // said so above the chart, with the switches left as chosen.
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(window.compilation()->state(), loupe::models::ModelCompilation::State::Compiled);
    QVERIFY2(window.compilation()->fitNote().startsWith(
                 "fits with overlapped outputs, every board's default: "),
             qPrintable(window.compilation()->fitNote()));
    QVERIFY(window.memoryPlanView()->summaryText().contains(
        "for the board:</b> fits with overlapped outputs"));
    QVERIFY(!window.memoryPlanView()->overlapSwitch()->isChecked());

    // The host has no memories of its own to fit.
    QVERIFY(panel->selectPlatform("host"));
    QTRY_VERIFY_WITH_TIMEOUT(checked("host"), kRunTimeoutMs);
    QCOMPARE(fit->state(), BoardFitCheck::State::None);
    QVERIFY(panel->fitLabel()->text().contains("no memory limit"));
  }

  void aModelNoPlanFitsIsRefusedBeforeTheBuildWithTheBoardItFits() {
    ModelDocument document;
    QVERIFY(document.open(loupe::test::vwwModelPath()));
    BoardFitCheck check(&document, *loupe::test::registries());
    BoardRun::Request request;
    request.platform = "qemu-microbit";
    check.check(request);
    QCOMPARE(check.state(), BoardFitCheck::State::Checking);
    QTRY_VERIFY_WITH_TIMEOUT(check.state() != BoardFitCheck::State::Checking, kRunTimeoutMs);
    QCOMPARE(check.state(), BoardFitCheck::State::DoesNotFit);
    QVERIFY2(check.text().startsWith("the model does not fit qemu-microbit: "),
             qPrintable(check.text()));
    QVERIFY2(check.text().contains("\nThe smallest known board it fits: qemu-"),
             qPrintable(check.text()));

    // A board chosen while another is being checked: the last one is what
    // the check ends with.
    check.check(request);
    request.platform = "qemu-mps2-an385";
    check.check(request);
    QTRY_VERIFY_WITH_TIMEOUT(check.state() != BoardFitCheck::State::Checking, kRunTimeoutMs);
    QCOMPARE(check.platform(), "qemu-mps2-an385");
    QCOMPARE(check.state(), BoardFitCheck::State::Fits);
    QVERIFY2(check.text().startsWith("fits with overlapped outputs, every board's default: "),
             qPrintable(check.text()));
  }

  void kwsOnHostWithTheEthosUTargetIsBitExact() {
    ModelDocument document;
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    QStringList lines;
    connect(&run, &BoardRun::progress, this, [&lines](const QString& line) { lines << line; });
    BoardRun::Request request;
    QString error;
    request.targets = loupe::models::parseTargets("ethos-u -accelerator_config=ethos-u55-128, c",
                                                  loupe::test::registries()->targets, &error);
    QVERIFY(run.start(request));
    QVERIFY(run.waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(run.state() == BoardRun::State::Succeeded, qPrintable(run.errorMessage()));
    QVERIFY(run.outputsAgree());  // the reference and TFLite's real1 outputs, bit-exact
    QVERIFY2(!lines.filter("for ethos-u -accelerator_config=ethos-u55-128, c").isEmpty(),
             qPrintable(lines.join('\n')));
    // The Ethos-U operator is profiled like the CPU's: one call running
    // all of kws's thirteen operators, SOFTMAX too; the table and the chart
    // name it by its operators, not by thirteen joined types.
    QCOMPARE(run.profileRows().size(), std::size_t{1});
    const auto& region = run.profileRows().front();
    QVERIFY2(QString::fromStdString(region.time.name).contains("ethos_u"),
             region.time.name.c_str());
    QCOMPARE(region.modelOperators, QList<int>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
    QCOMPARE(ProfileTableModel::callOperatorsText(region), QString("op 0\u202612"));
    QCOMPARE(ProfileTableModel::callTypeText(region), QString("CUSTOM(ethos-u)"));

    // A target list is parsed where it is typed, before any run: an unknown
    // target never reaches the board, and the parser says why.
    QVERIFY(loupe::models::parseTargets("gpu", loupe::test::registries()->targets, &error).empty());
    QVERIFY2(error.contains("unknown target 'gpu'"), qPrintable(error));
  }

  void velaModelRunsOnHostWithItsNpuOperatorInTheProfile() {
    // person_detect compiled by Vela: one ethos-u operator, run by the
    // firmware's Ethos-U functional model, on the original's golden inputs.
    ModelDocument document;
    QVERIFY(document.open(loupe::test::velaModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    const auto golden = loupe::test::modelsDir() / "person_detect" / "golden" / "real1";
    run.setInputFiles({QString::fromStdString((golden / "input0.bin").string())});
    QVERIFY(run.start({}));
    QVERIFY(run.waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(run.state() == BoardRun::State::Succeeded, qPrintable(run.errorMessage()));
    // The reference interpreter gives TFLite's bytes for these inputs
    // (golden_vela_reference); the board gives the reference's.
    QVERIFY(run.outputsAgree());
    QVERIFY(run.outputChecks().front().message.contains("reference interpreter (bit-exact)"));

    // The NPU operator is a row of the profile with its share of the time.
    int npuRows = 0;
    for (const auto& row : run.profileRows()) {
      if (row.time.type != "CUSTOM(ethos-u)") continue;
      ++npuRows;
      QVERIFY(row.time.time > 0);
      QVERIFY(row.time.time <= run.profileTotal());
      QCOMPARE(row.modelOperators.size(), 1);
    }
    QCOMPARE(npuRows, 1);
  }

  void wrongInputFilesFailWithAMessage() {
    ModelDocument document;
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    QTemporaryDir dir;
    QFile file(dir.filePath("short.bin"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("abc");
    file.close();
    run.setInputFiles({file.fileName()});
    QCOMPARE(run.inputsDescription(), "short.bin");
    QVERIFY(run.goldenSet().isEmpty());  // files replace the golden set
    QVERIFY(run.start({}));
    QVERIFY(run.waitUntilIdle(kRunTimeoutMs));
    QCOMPARE(run.state(), BoardRun::State::Failed);
    QVERIFY2(run.errorMessage().contains("3 bytes"), qPrintable(run.errorMessage()));
    QVERIFY(run.profileRows().isEmpty());
  }

  void cancelStopsTheBuildAndDropsTheResult() {
    // An empty firmware cache, so the run has a build of some seconds to stop.
    QTemporaryDir cache;
    const QByteArray previousCache = qgetenv("XDG_CACHE_HOME");
    qputenv("XDG_CACHE_HOME", cache.path().toLocal8Bit());
    ModelDocument document;
    QVERIFY(document.open(loupe::test::kwsModelPath()));
    BoardRun run(&document, *loupe::test::registries());
    bool building = false;
    connect(&run, &BoardRun::progress, this, [&](const QString& line) {
      if (line.startsWith("[build]") && !building) {
        building = true;
        run.cancel();
      }
    });
    QVERIFY(run.start({}));
    QTRY_VERIFY_WITH_TIMEOUT(building, kRunTimeoutMs);
    QVERIFY(!run.isRunning());
    QCOMPARE(run.state(), BoardRun::State::Failed);
    QCOMPARE(run.errorMessage(), "cancelled");
    // The worker ends without finishing the build: make and its compilers
    // are killed and their folder removed; a build that ran on would have
    // been moved into the cache.
    QTRY_VERIFY_WITH_TIMEOUT(!run.isWorking(), 10000);
    const QDir firmware(cache.filePath("loupe/firmware/host"));
    const QStringList left = firmware.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(", ")));
    QCOMPARE(run.state(), BoardRun::State::Failed);
    QVERIFY(run.profileRows().isEmpty());
    if (previousCache.isNull()) {
      qunsetenv("XDG_CACHE_HOME");
    } else {
      qputenv("XDG_CACHE_HOME", previousCache);
    }
  }

  void theProfileSelectsOperatorsEverywhere() {
    MainWindow window(quietOptions());
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    auto* graph = window.graphView();
    QCOMPARE(graph->colourBy(), loupe::views::GraphView::ColourBy::Target);
    QVERIFY(!graph->setColourBy(loupe::views::GraphView::ColourBy::Time));  // no profile yet

    QVERIFY(window.deployPanel()->selectPlatform("host"));
    // Run on board compiles for the targets the views show.
    QVERIFY(window.setTargetString("ethos-u -accelerator_config=ethos-u55-64, c"));
    QCOMPARE(window.deployPanel()->targetString(), "ethos-u -accelerator_config=ethos-u55-64, c");
    QVERIFY(window.waitUntilIdle());
    QVERIFY(window.runOnBoardAction()->isEnabled());
    window.runOnBoardAction()->trigger();
    QVERIFY(window.boardRun()->isRunning());
    QVERIFY(window.deployPanel()->cancelButton()->isEnabled());
    QVERIFY(window.waitUntilIdle(kRunTimeoutMs));
    QVERIFY2(window.boardRun()->state() == BoardRun::State::Succeeded,
             qPrintable(window.boardRun()->errorMessage()));
    QVERIFY(window.deployPanel()->resultLabel()->text().contains("bit-exact"));
    QVERIFY(window.buildLog()->toPlainText().contains("[compile]"));
    QVERIFY(window.buildLog()->toPlainText().contains(
        "to C for ethos-u -accelerator_config=ethos-u55-64, c"));

    QTableView* table = window.profileView()->table();
    QCOMPARE(table->model()->rowCount(), static_cast<int>(window.boardRun()->profileRows().size()));
    // Pick a row whose operator is not the current one (kws is one Ethos-U
    // call from operator 0 on: the current operator is made another).
    window.document()->setCurrentOperator(window.document()->operatorCount() - 1);
    const int before = window.document()->currentOperator();
    int row = 0;
    while (row < table->model()->rowCount() &&
           table->model()->index(row, 0).data(ProfileTableModel::OperatorIndexRole).toInt() ==
               before) {
      ++row;
    }
    QVERIFY(row < table->model()->rowCount());
    const int wanted =
        table->model()->index(row, 0).data(ProfileTableModel::OperatorIndexRole).toInt();
    table->setCurrentIndex(QModelIndex());  // the row may be current already
    table->setCurrentIndex(table->model()->index(row, 0));
    QCOMPARE(window.document()->currentOperator(), wanted);
    QVERIFY(graph->nodeOfOperator(wanted)->isCurrent());

    // A bar selects its operator too; the slowest call is the top bar.
    QVERIFY(window.profileView()->barCount() > 0);
    window.profileView()->activateBar(window.profileView()->barCount() - 1);
    int slowest = -1;
    double slowestTime = -1;
    for (const auto& r : window.boardRun()->profileRows()) {
      if (r.time.time > slowestTime) {
        slowestTime = r.time.time;
        slowest = r.modelOperators.front();
      }
    }
    QCOMPARE(window.document()->currentOperator(), slowest);

    // The graph turned to colour by time: the slowest node is the hottest.
    QCOMPARE(graph->colourBy(), loupe::views::GraphView::ColourBy::Time);
    QCOMPARE(graph->nodeOfOperator(slowest)->heat(), 1.0);
    QVERIFY(graph->setColourBy(loupe::views::GraphView::ColourBy::Target));
    QVERIFY(graph->nodeOfOperator(slowest)->heat() < 0);
  }

  void aFailingDeploymentIsAProblemAndTheModelStaysOpen() {
    MainWindow window(quietOptions());
    window.show();
    QVERIFY(window.openModel(loupe::test::kwsModelPath()));
    QVERIFY(window.waitUntilIdle());
    auto* panel = window.deployPanel();
    if (!panel->selectPlatform("serial")) QSKIP("the serial platform's tools are not installed");
    panel->portBox()->setCurrentText("/nonexistent/ttyLOUPE0");
    panel->runOnBoard();
    QVERIFY(window.waitUntilIdle(kRunTimeoutMs));
    QCOMPARE(window.boardRun()->state(), BoardRun::State::Failed);

    const ProblemListModel* problems = window.problemListModel();
    QString deployProblem;
    for (const auto& problem : problems->problems()) {
      if (problem.location == "deploy") deployProblem = problem.description;
    }
    QVERIFY2(deployProblem.contains("serial"), qPrintable(deployProblem));
    QVERIFY2(deployProblem.contains("ttyLOUPE0"), qPrintable(deployProblem));
    QVERIFY(problems->count(ProblemListModel::Severity::Error) >= 1);
    QVERIFY(window.buildLog()->toPlainText().contains("[error]"));
    QVERIFY(panel->resultLabel()->text().contains("failed"));

    // Still usable: the model is open, and a run on the host now succeeds
    // and clears the problem.
    QVERIFY(window.document()->isLoaded());
    QCOMPARE(window.document()->operatorCount(), loupe::test::kwsOperatorTypes().size());
    QVERIFY(panel->selectPlatform("host"));
    panel->runOnBoard();
    QVERIFY(window.waitUntilIdle(kRunTimeoutMs));
    QCOMPARE(window.boardRun()->state(), BoardRun::State::Succeeded);
    for (const auto& problem : problems->problems()) QVERIFY(problem.location != "deploy");
  }
};

QTEST_MAIN(BoardRunTest)
#include "board_run_test.moc"
