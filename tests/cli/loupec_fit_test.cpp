// Fit first (driver/memory_fit.h) as a user meets it: every board's plan has
// overlapped outputs unless --plain-plan says otherwise; kws on the 16 KB
// micro:bit, which the plain plan does not fit, runs with no flags, says
// which plan it has, and matches TFLite on every golden set; --plain-plan
// refuses instead; models no plan fits are refused with every plan's
// shortfall and the smallest known board they fit.
#include <QtTest>

#include "loupec_process.h"
#include "test_data.h"

namespace {

// loupec's exit code and output as text (micro:bit runs take a while).
struct Result {
  int exitCode;
  QString out;
  QString err;
};

Result loupec(const QStringList& arguments) {
  const loupe::test::LoupecRun run = loupe::test::runLoupec(arguments, 300000);
  return {run.exitCode, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
}

QString modelPath(const QString& name) {
  return QString::fromStdString(
      (loupe::test::modelsDir() / name.toStdString() / "model.tflite").string());
}

QString goldenPath(const QString& name, const QString& set, const char* file) {
  return QString::fromStdString(
      (loupe::test::modelsDir() / name.toStdString() / "golden" / set.toStdString() / file)
          .string());
}

// The workspace size the generated model declares, or -1.
int generatedWorkspaceBytes(const QString& project) {
  QFile header(project + "/model/include/tvmgen_default.h");
  if (!header.open(QIODevice::ReadOnly)) return -1;
  static const QRegularExpression size(R"(#define TVMGEN_DEFAULT_WORKSPACE_SIZE (\d+))");
  const auto match = size.match(QString::fromUtf8(header.readAll()));
  return match.hasMatch() ? match.captured(1).toInt() : -1;
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

// The golden sets of `model`: the folders under its golden/.
QStringList goldenSets(const QString& model) {
  return QDir(QString::fromStdString(
                  (loupe::test::modelsDir() / model.toStdString() / "golden").string()))
      .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class LoupecFit : public QObject {
  Q_OBJECT

 private slots:
  void kwsRunsOnTheMicrobitWithTheFirstPlanThatFits_data() {
    QTest::addColumn<QString>("set");
    const QStringList sets = goldenSets("kws_ref_model");
    QVERIFY(sets.size() >= 6);
    for (const QString& set : sets) QTest::newRow(qPrintable(set)) << set;
  }

  void kwsRunsOnTheMicrobitWithTheFirstPlanThatFits() {
    QFETCH(QString, set);
    QTemporaryDir out;
    const Result run =
        loupec({"run", modelPath("kws_ref_model"), "--platform", "qemu-microbit", "--inputs",
                goldenPath("kws_ref_model", set, "input0.bin"), "--output-dir", out.path()});
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    // What was applied, the bytes against what the board holds, and the cost.
    static const QRegularExpression applied(
        R"(\[plan\] fits with overlapped outputs, every board's default: [\d,]+ of [\d,]+ )"
        R"(workspace bytes; no extra work)");
    QVERIFY2(applied.match(run.out).hasMatch(), qPrintable(run.out));
    QCOMPARE(readAll(out.filePath("output0.bin")),
             readAll(goldenPath("kws_ref_model", set, "output0.bin")));
  }

  void everyBoardsPlanHasOverlappedOutputsUnlessThePlainPlanIsAsked() {
    QTemporaryDir dir;
    const QString byDefault = dir.filePath("default"), plain = dir.filePath("plain");
    const Result generated = loupec({"generate", modelPath("kws_ref_model"), "--platform",
                                     "qemu-mps2-an385", "--output", byDefault});
    QVERIFY2(generated.exitCode == 0, qPrintable(generated.out + generated.err));
    QVERIFY2(generated.out.contains("fits with overlapped outputs, every board's default: "),
             qPrintable(generated.out));
    const Result asked = loupec({"generate", modelPath("kws_ref_model"), "--platform",
                                 "qemu-mps2-an385", "--output", plain, "--plain-plan"});
    QVERIFY2(asked.exitCode == 0, qPrintable(asked.out + asked.err));
    QVERIFY2(!asked.out.contains("fits with"), qPrintable(asked.out));
    // kws's intermediate tensors overlap their dying inputs by half.
    const int overlapped = generatedWorkspaceBytes(byDefault);
    QVERIFY(overlapped > 0);
    QVERIFY2(overlapped * 3 < generatedWorkspaceBytes(plain) * 2,
             qPrintable(QString("%1 vs %2").arg(overlapped).arg(generatedWorkspaceBytes(plain))));
  }

  void plainPlanRefusesInsteadOfChangingThePlan() {
    QTemporaryDir out;
    const Result run = loupec({"run", modelPath("kws_ref_model"), "--platform", "qemu-microbit",
                               "--inputs", goldenPath("kws_ref_model", "real1", "input0.bin"),
                               "--output-dir", out.path(), "--plain-plan"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("does not fit qemu-microbit") && run.err.contains("bytes short"),
             qPrintable(run.err));
    QVERIFY(!run.out.contains("[plan]"));
    QVERIFY(!QFile::exists(out.filePath("output0.bin")));
    // A forced plan and --plain-plan contradict each other.
    const Result both = loupec({"run", modelPath("kws_ref_model"), "--platform", "qemu-microbit",
                                "--inputs", goldenPath("kws_ref_model", "real1", "input0.bin"),
                                "--output-dir", out.path(), "--plain-plan", "--patches"});
    QCOMPARE(both.exitCode, 2);
    QVERIFY2(both.err.contains("--plain-plan"), qPrintable(both.err));
  }

  void modelsNoPlanFitsAreRefusedWithEveryPlanAndABoardTheyFit_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("ic_resnet8_int8") << "ic_resnet8_int8";
    QTest::newRow("vww_96_int8") << "vww_96_int8";
  }

  void modelsNoPlanFitsAreRefusedWithEveryPlanAndABoardTheyFit() {
    QFETCH(QString, model);
    QTemporaryDir out;
    const Result run = loupec({"run", modelPath(model), "--platform", "qemu-microbit", "--inputs",
                               goldenPath(model, goldenSets(model).front(), "input0.bin"),
                               "--output-dir", out.path()});
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains("does not fit qemu-microbit"), qPrintable(run.err));
    // Every plan tried, each with the bytes it lacks, then the closest.
    for (const char* plan : {"overlapped outputs", "patches", "overlapped outputs and patches"}) {
      const QRegularExpression line(QString(R"(\n  %1: [\d,]+ bytes short \()").arg(plan));
      QVERIFY2(line.match(run.err).hasMatch(), qPrintable(plan + QString(": ") + run.err));
    }
    QVERIFY2(run.err.contains(QRegularExpression(R"(The closest is [a-z ]+, [\d,]+ bytes short)")),
             qPrintable(run.err));
    // The micro:bit is the smallest board; the next one up holds these models.
    static const QRegularExpression board(R"(The smallest known board it fits: ([a-z0-9-]+) \()");
    const auto match = board.match(run.err);
    QVERIFY2(match.hasMatch(), qPrintable(run.err));
    QVERIFY(match.captured(1) != "qemu-microbit");
  }
};

QTEST_GUILESS_MAIN(LoupecFit)
#include "loupec_fit_test.moc"
