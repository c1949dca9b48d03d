// The bundled tuning logs in the window: choosing a board compiles the views
// with the schedules its bundled logs measured, and the status bar and the
// Deploy panel say how many of the model's workloads they tuned; Run → Use
// Bundled Tuning Logs turns them off and on again (and is kept with the
// preferences); a tuning log of the user's replaces them until cleared; a
// board the logs never measured compiles with default schedules.
// LOUPE_TUNING_DIR points at a copy of the bundled kws log on the M55 only,
// so the test does not change as more logs are bundled.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/main_window.h"
#include "gui_test_files.h"
#include "models/model_compilation.h"
#include "quiet_main_window.h"
#include "views/deploy_panel.h"

using loupe::gui::MainWindow;

namespace {

const char* const kBoard = "qemu-mps3-an547";
const char* const kSource = "bundled tuning logs (qemu-mps3-an547)";

QString statusText(const MainWindow& window) {
  QStringList texts;
  for (const QLabel* label : window.statusBar()->findChildren<QLabel*>()) texts << label->text();
  return texts.join(" | ");
}

QString deployPanelText(const MainWindow& window) {
  QStringList texts;
  for (const QLabel* label : window.deployPanel()->findChildren<QLabel*>()) texts << label->text();
  return texts.join(" | ");
}

}  // namespace

class BundledTuningTest : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  // The window with kws open for the M55.
  std::unique_ptr<MainWindow> openOnBoard(const char* board = kBoard) {
    auto window = std::make_unique<MainWindow>(quietOptions());
    window->openModel(loupe::test::kwsModelPath());
    if (!window->deployPanel()->selectPlatform(board)) return nullptr;
    if (!window->waitUntilIdle()) return nullptr;
    return window;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath("settings"));
    QCoreApplication::setOrganizationName("LoupeTest");
    QCoreApplication::setApplicationName("loupe_bundled_tuning_test");
    QVERIFY(QDir().mkpath(dir_.filePath("logs")));
    QVERIFY(QFile::copy(LOUPE_SOURCE_TUNING_DIR "/kws_ref_model.qemu-mps3-an547.jsonl",
                        dir_.filePath("logs/kws_ref_model.qemu-mps3-an547.jsonl")));
    qputenv("LOUPE_TUNING_DIR", dir_.filePath("logs").toUtf8());
  }

  void aBoardsBundledSchedulesCompileTheViewsUntilTurnedOff() {
    auto window = openOnBoard();
    QVERIFY(window);
    QVERIFY(window->bundledTuningAction()->isChecked());
    auto status = window->compilation()->tuningStatus();
    QCOMPARE(status.source, QString(kSource));
    // kws's own log on the M55 tuned each of its workloads.
    QVERIFY(status.workloads >= 5);
    QCOMPARE(status.tuned, status.workloads);
    QVERIFY(window->compilation()->tirListing().text.contains("\"schedule\""));
    const QString coverage =
        QString("%1: %2 of %3 workload").arg(kSource).arg(status.tuned).arg(status.workloads);
    QVERIFY2(statusText(*window).contains(coverage), qPrintable(statusText(*window)));
    QVERIFY2(deployPanelText(*window).contains(coverage), qPrintable(deployPanelText(*window)));

    // Off: default schedules everywhere, and nothing claims otherwise.
    window->bundledTuningAction()->trigger();
    QVERIFY(window->waitUntilIdle());
    QVERIFY(!window->compilation()->bundledTuning());
    QVERIFY(window->compilation()->tuningStatus().source.isEmpty());
    QVERIFY(!window->compilation()->tirListing().text.contains("\"schedule\""));
    QVERIFY2(!statusText(*window).contains("workload"), qPrintable(statusText(*window)));
    QVERIFY2(deployPanelText(*window).contains("default"), qPrintable(deployPanelText(*window)));

    // On again.
    window->bundledTuningAction()->trigger();
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(window->compilation()->tuningStatus().source, QString(kSource));
  }

  void aTuningLogOfTheUsersReplacesThemUntilCleared() {
    auto window = openOnBoard();
    QVERIFY(window);
    // One record: the first of the bundled log, for one workload.
    QFile bundled(dir_.filePath("logs/kws_ref_model.qemu-mps3-an547.jsonl"));
    QVERIFY(bundled.open(QIODevice::ReadOnly));
    QFile own(dir_.filePath("own.json"));
    QVERIFY(own.open(QIODevice::WriteOnly));
    own.write(bundled.readLine());
    own.close();
    QVERIFY(window->applyTuningLog(own.fileName()));
    QVERIFY(window->waitUntilIdle());
    const auto status = window->compilation()->tuningStatus();
    QCOMPARE(status.source, QString("own.json"));
    QCOMPARE(status.tuned, 1);
    QVERIFY2(!statusText(*window).contains("bundled"), qPrintable(statusText(*window)));
    QVERIFY2(deployPanelText(*window).contains("1 tuned workload(s) from own.json") ||
                 deployPanelText(*window).contains("1 tuned workload from own.json"),
             qPrintable(deployPanelText(*window)));
    window->applySchedules({}, {});  // Run → Clear Tuning Log
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(window->compilation()->tuningStatus().source, QString(kSource));
  }

  void aBoardTheLogsNeverMeasuredGetsDefaultSchedules() {
    auto window = openOnBoard("qemu-mps2-an385");
    QVERIFY(window);
    QVERIFY(window->compilation()->tuningStatus().source.isEmpty());
    QVERIFY(!window->compilation()->tirListing().text.contains("\"schedule\""));
    // And back on the M55, tuned again.
    QVERIFY(window->deployPanel()->selectPlatform(kBoard));
    QVERIFY(window->waitUntilIdle());
    QCOMPARE(window->compilation()->tuningStatus().source, QString(kSource));
  }

  void turningThemOffIsKeptWithThePreferences() {
    const MainWindow::Options persisted{
        .interactive = false, .persistSettings = true, .registries = loupe::test::registries()};
    {
      MainWindow window(persisted);
      QVERIFY(window.bundledTuningAction()->isChecked());
      window.bundledTuningAction()->trigger();
      QVERIFY(!window.compilation()->bundledTuning());
    }
    {
      MainWindow again(persisted);
      QVERIFY(!again.bundledTuningAction()->isChecked());
      QVERIFY(!again.compilation()->bundledTuning());
      again.bundledTuningAction()->trigger();
    }
    MainWindow third(persisted);
    QVERIFY(third.compilation()->bundledTuning());
  }
};

QTEST_MAIN(BundledTuningTest)
#include "bundled_tuning_test.moc"
