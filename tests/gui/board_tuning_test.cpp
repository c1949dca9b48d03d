// Tune on board from the window (models::BoardTuning, views::TuningPanel) on
// qemu-mps2-an385 with ad01_int8: choosing the board recompiles the views
// for its CPU (the C view calls its kernels); a tuning with two candidates per
// workload measures every workload, appends one record per measurement to
// the log, shows default and best per workload and, applied, recompiles the
// TIR with the tuned schedules; tuning again resumes (nothing measured twice);
// Stop keeps what was measured; a log that is not a log fails the tuning
// with its line named, in Problems, and applying it changes nothing.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/board_run.h"
#include "models/board_tuning.h"
#include "models/model_compilation.h"
#include "models/model_document.h"
#include "models/problem_list_model.h"
#include "quiet_main_window.h"
#include "tuning/tuning_log.h"
#include "views/deploy_panel.h"
#include "views/memory_plan_view.h"
#include "views/tuning_panel.h"

using loupe::gui::MainWindow;
using loupe::models::BoardTuning;

namespace {

constexpr int kTuneTimeoutMs = 900000;  // cold firmware builds on a busy machine
const char* const kBoard = "qemu-mps2-an385";

QString listingText(const loupe::models::FunctionListing& listing) {
  return listing.text;
}

int logLines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return -1;
  int lines = 0;
  while (!file.readLine().isEmpty()) ++lines;
  return lines;
}

}  // namespace

class BoardTuningTest : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  // A window with ad01 open and the an385 chosen in the Deploy panel.
  std::unique_ptr<MainWindow> openOnBoard() {
    auto window = std::make_unique<MainWindow>(quietOptions());
    window->openModel(loupe::test::ad01ModelPath());
    if (!window->deployPanel()->selectPlatform(kBoard)) return nullptr;
    if (!window->waitUntilIdle()) return nullptr;
    return window;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    qputenv("XDG_CACHE_HOME", dir_.filePath("cache").toUtf8());
  }

  void choosingABoardCompilesTheViewsForItsCpu() {
    MainWindow window(quietOptions());
    window.openModel(loupe::test::ad01ModelPath());
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(window.compilation()->boardCpu(), QString());  // host: portable C
    QVERIFY(!listingText(window.compilation()->cListing()).contains("loupe_conv_pixel_s8_thumb"));
    QVERIFY(window.deployPanel()->selectPlatform(kBoard));
    QVERIFY(window.waitUntilIdle());
    QCOMPARE(window.compilation()->boardCpu(), QString("cortex-m3"));
    QVERIFY(listingText(window.compilation()->cListing()).contains("loupe_conv_pixel_s8_thumb"));
    QCOMPARE(window.tuningPanel()->platform(), QString(kBoard));
    QVERIFY(window.tuningPanel()->tuneButton()->isEnabled());
    // serial runs firmware flashed by hand: nothing to tune.
    QVERIFY(window.deployPanel()->selectPlatform("serial"));
    QVERIFY(!window.tuningPanel()->tuneButton()->isEnabled());
  }

  // Run on board builds the firmware with a map: the Memory Plan view then
  // says what it loads into the board's memory, measured; another model
  // clears it.
  void runOnBoardShowsTheMeasuredFlash() {
    auto window = openOnBoard();
    QVERIFY(window);
    QVERIFY(window->memoryPlanView()->flashText().isEmpty());
    window->deployPanel()->runOnBoard();
    QVERIFY(window->waitUntilIdle(kTuneTimeoutMs));
    QVERIFY(window->boardRun()->state() == loupe::models::BoardRun::State::Succeeded);
    const QString flash = window->memoryPlanView()->flashText();
    QVERIFY2(flash.contains(QString("last run on %1: CODE_SRAM: ").arg(kBoard)), qPrintable(flash));
    QVERIFY2(flash.contains("model constants"), qPrintable(flash));
    QCOMPARE(window->boardRun()->flashFootprint().size(), 1);
    window->openModel(loupe::test::ad01ModelPath());
    QVERIFY(window->waitUntilIdle());
    QVERIFY(window->memoryPlanView()->flashText().isEmpty());
  }

  void tuningMeasuresAppliesAndResumes() {
    auto window = openOnBoard();
    QVERIFY(window);
    loupe::views::TuningPanel* panel = window->tuningPanel();
    BoardTuning* tuning = window->boardTuning();
    const QString log = dir_.filePath("ad01.an385.json");
    panel->logEdit()->setText(log);
    panel->trialsBox()->setValue(2);
    panel->jobsBox()->setValue(2);
    QSignalSpy progress(tuning, &BoardTuning::progressChanged);

    panel->tuneButton()->click();
    QVERIFY(tuning->isRunning());
    QVERIFY(!panel->tuneButton()->isEnabled());
    QVERIFY(panel->stopButton()->isEnabled());
    QVERIFY(tuning->waitUntilIdle(kTuneTimeoutMs));
    QVERIFY2(tuning->state() == BoardTuning::State::Finished, qPrintable(tuning->errorMessage()));
    QVERIFY(progress.count() > 2);  // the workloads, then records as they came

    // Every workload measured with its default and at most one more candidate.
    const auto& rows = tuning->rows();
    QVERIFY(!rows.isEmpty());
    int records = 0;
    for (const auto& row : rows) {
      QVERIFY2(row.defaultCost && row.bestCost, qPrintable(row.key));
      QVERIFY(*row.bestCost <= *row.defaultCost);
      QVERIFY(row.measured >= 1 && row.measured <= 2);
      QVERIFY(row.calls >= 1);
      QVERIFY(row.key.endsWith("@thumb"));
      records += row.measured;
    }
    QCOMPARE(tuning->unit(), QString("instructions"));
    QCOMPARE(tuning->recordsWritten(), records);
    QCOMPARE(tuning->trialsDone(), tuning->trialsTotal());
    QCOMPARE(logLines(log), records);
    const auto logged = loupe::tuning::readTuningLogFile(log.toStdString());
    QCOMPARE(static_cast<int>(logged.size()), records);
    for (const auto& record : logged) QCOMPARE(record.board, std::string(kBoard));
    QCOMPARE(panel->table()->rowCount(), static_cast<int>(rows.size()));
    QVERIFY(panel->statusLabel()->text().contains("Finished"));

    // Applied when done: the views and Run on board use the log's best.
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(window->compilation()->schedulesSource(), QString("ad01.an385.json"));
    QCOMPARE(window->compilation()->schedules(), loupe::tuning::bestSchedules(logged));
    QVERIFY(listingText(window->compilation()->tirListing()).contains("\"schedule\""));
    if (qEnvironmentVariableIsSet("LOUPE_TEST_SCREENSHOTS")) {
      window->resize(1600, 1000);
      window->showView("tir");
      window->showView("tune");
      window->grab().save(qEnvironmentVariable("LOUPE_TEST_SCREENSHOTS") + "/tune_panel.png");
    }

    // Tuning again resumes from the log: every candidate was measured.
    panel->tuneButton()->click();
    QVERIFY(tuning->waitUntilIdle(kTuneTimeoutMs));
    QVERIFY2(tuning->state() == BoardTuning::State::Finished, qPrintable(tuning->errorMessage()));
    QCOMPARE(tuning->recordsWritten(), 0);
    QCOMPARE(logLines(log), records);
    QCOMPARE(tuning->rows().size(), rows.size());
    for (const auto& row : tuning->rows()) QVERIFY(row.bestCost);  // known from the log

    // Clear Tuning Log: back to the bundled logs' schedules (ad01 on the M3
    // has a log of its own in bench/tuning), and without them to the defaults.
    window->applySchedules({}, {});
    QVERIFY(window->waitUntilIdle());
    const auto status = window->compilation()->tuningStatus();
    QCOMPARE(status.source, QString("bundled tuning logs (%1)").arg(kBoard));
    QVERIFY(status.tuned > 0);
    window->setBundledTuning(false);
    QVERIFY(window->waitUntilIdle());
    QVERIFY(!listingText(window->compilation()->tirListing()).contains("\"schedule\""));
    window->setBundledTuning(true);
    QVERIFY(window->waitUntilIdle());
  }

  void stopKeepsWhatWasMeasured() {
    auto window = openOnBoard();
    QVERIFY(window);
    BoardTuning* tuning = window->boardTuning();
    const QString log = dir_.filePath("stopped.json");
    window->tuningPanel()->logEdit()->setText(log);
    window->tuningPanel()->jobsBox()->setValue(1);
    window->tuningPanel()->tuneButton()->click();
    // Stop once the first trial's records are in.
    QTRY_VERIFY_WITH_TIMEOUT(tuning->recordsWritten() > 0, kTuneTimeoutMs);
    window->tuningPanel()->stopButton()->click();
    QCOMPARE(tuning->state(), BoardTuning::State::Stopping);
    QVERIFY(tuning->waitUntilIdle(kTuneTimeoutMs));
    QCOMPARE(tuning->state(), BoardTuning::State::Stopped);
    QVERIFY(tuning->trialsDone() < tuning->trialsTotal());
    QCOMPARE(logLines(log), tuning->recordsWritten());
    QVERIFY(window->tuningPanel()->statusLabel()->text().contains("Stopped"));
  }

  void aLogThatIsNotALogFailsClearly() {
    auto window = openOnBoard();
    QVERIFY(window);
    const QString log = dir_.filePath("garbage.json");
    QFile file(log);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"workload\": 1}\nnot json at all\n{}\n");
    file.close();

    window->tuningPanel()->logEdit()->setText(log);
    window->tuningPanel()->tuneButton()->click();
    QVERIFY(window->boardTuning()->waitUntilIdle(kTuneTimeoutMs));
    QCOMPARE(window->boardTuning()->state(), BoardTuning::State::Failed);
    const QString error = window->boardTuning()->errorMessage();
    QVERIFY2(error.contains("garbage.json:1: not a tuning record"), qPrintable(error));
    bool listed = false;
    for (const auto& problem : window->problemListModel()->problems()) {
      listed = listed || (problem.location == "tune" && problem.description.contains(error));
    }
    QVERIFY(listed);

    // Applying it changes nothing; the views keep their schedules.
    QVERIFY(!window->applyTuningLog(log));
    QVERIFY(window->compilation()->schedules().empty());
    QVERIFY(!window->applyTuningLog(dir_.filePath("missing.json")));
  }
};

QTEST_MAIN(BoardTuningTest)
#include "board_tuning_test.moc"
