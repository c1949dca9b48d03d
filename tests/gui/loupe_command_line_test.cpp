// The loupe binary as scripts use it: --version, --help, and --screenshot,
// which must work offscreen and fail loudly.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "gui_test_files.h"
#include "loupe_version.h"

namespace {

struct Run {
  int exitCode = -1;
  QString out;
  QString err;
};

Run runLoupe(const QStringList& arguments) {
  QProcess process;
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert("QT_QPA_PLATFORM", "offscreen");
  process.setProcessEnvironment(environment);
  process.start(QStringLiteral(LOUPE_EXECUTABLE), arguments);
  if (!process.waitForFinished(60000)) return {};
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
          QString::fromLocal8Bit(process.readAllStandardOutput()),
          QString::fromLocal8Bit(process.readAllStandardError())};
}

}  // namespace

class LoupeCommandLineTest : public QObject {
  Q_OBJECT

 private slots:
  void versionAndHelp() {
    const Run version = runLoupe({"--version"});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out.trimmed(), QStringLiteral("loupe " LOUPE_VERSION));
    const Run help = runLoupe({"--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains("usage: loupe"));
    QVERIFY(help.out.contains("--screenshot"));
  }

  void aScreenshotIsAPngOfTheWindowSize() {
    QTemporaryDir dir;
    const QString png = dir.filePath("operators.png");
    const Run run = runLoupe({"--screenshot", png, loupe::test::kwsModelPath()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(QFileInfo(png).size() > 10000);  // a rendered window, not an empty image
    const QImage image(png, "PNG");
    QCOMPARE(image.size(), QSize(1400, 900));
    // Not one flat colour: the window really drew something.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7) {
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    }
    QVERIFY(colours.size() > 20);
  }

  void theScreenshotTakesAViewAndASize() {
    QTemporaryDir dir;
    const QString png = dir.filePath("ir.png");
    // Above the window's minimum (its docks and views side by side), which
    // depends on the fonts installed.
    const Run run = runLoupe({"--screenshot", png, "--view", "ir", "--size", "1300x760"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));  // the bundled model
    QCOMPARE(QImage(png, "PNG").size(), QSize(1300, 760));
  }

  void aCorruptModelFailsTheScreenshotWithTheImportersMessage() {
    QTemporaryDir dir;
    const QString corrupt = loupe::test::writeCorruptModel(dir);
    const QString png = dir.filePath("never.png");
    const Run run = runLoupe({"--screenshot", png, corrupt});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("loupe: corrupt.tflite: "), qPrintable(run.err));
    QVERIFY(!QFileInfo::exists(png));
  }

  void badArgumentsExitWithUsageError() {
    const Run run = runLoupe({"--screenshot", "x.png", "--view", "flowchart"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("unknown view 'flowchart'"));
  }

  void aBadTargetStringExitsWithUsageError() {
    const Run run =
        runLoupe({"--screenshot", "x.png", "--target", "ethos-u -accelerator_config=ethos-u55-7"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("--target 'ethos-u -accelerator_config=ethos-u55-7'"),
             qPrintable(run.err));
    QVERIFY(!QFileInfo::exists("x.png"));
  }

  void anUnwritableScreenshotFails() {
    const Run run = runLoupe({"--screenshot", "/nonexistent/dir/x.png"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("cannot write /nonexistent/dir/x.png"), qPrintable(run.err));
  }
};

QTEST_GUILESS_MAIN(LoupeCommandLineTest)
#include "loupe_command_line_test.moc"
