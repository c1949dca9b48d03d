// loupec compile --format tflite: the model with its Ethos-U regions as a
// .tflite in Vela's layout, which loupec info and run open again (run gives
// TFLite Micro's bytes); refused, with the reason and no file written,
// without an ethos-u target, for a model the Ethos-U takes nothing of, for a
// Vela file, with the C code's options or an unknown format. Without
// --format, compile still writes the Model Library Format tar.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "loupec_process.h"
#include "test_data.h"

namespace {

const QString kEthosU128 = QStringLiteral("ethos-u -accelerator_config=ethos-u55-128, c");

QString model(const char* name) {
  return QString::fromStdString((loupe::test::modelsDir() / name / "model.tflite").string());
}

QByteArray readFile(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class LoupecTfliteFormatTest : public QObject {
  Q_OBJECT

 private slots:
  void kwsIsWrittenAndRunsAgain() {
    QTemporaryDir dir;
    const QString out = dir.filePath("kws.tflite");
    const auto result = loupe::test::runLoupec({"compile", model("kws_ref_model"), "--target",
                                                kEthosU128, "--format", "tflite", "-o", out});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    QVERIFY2(result.out.contains("1 ethos-u operator(s)"), result.out.constData());
    // SOFTMAX too runs on the NPU, as in Vela's own file.
    QVERIFY2(result.out.contains("0 TFLite operator(s) for the CPU"), result.out.constData());
    const QByteArray bytes = readFile(out);
    QVERIFY(bytes.size() > 8);
    QCOMPARE(bytes.mid(4, 4), QByteArray("TFL3"));

    const auto info = loupe::test::runLoupec({"info", out});
    QCOMPARE(info.exitCode, 0);
    QVERIFY2(info.out.contains("CUSTOM(ethos-u)"), info.out.constData());
    QVERIFY2(info.out.contains("operators (1, execution order)"), info.out.constData());

    const auto set = loupe::test::modelsDir() / "kws_ref_model" / "golden" / "real2";
    const auto run = loupe::test::runLoupec({"run", out, "--platform", "reference", "--inputs",
                                             QString::fromStdString((set / "input0.bin").string()),
                                             "--output-dir", dir.path()});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(readFile(dir.filePath("output0.bin")),
             readFile(QString::fromStdString((set / "output0.bin").string())));
  }

  void withoutFormatCompileStillWritesTheTar() {
    QTemporaryDir dir;
    const QString out = dir.filePath("kws.tar");
    const auto result = loupe::test::runLoupec(
        {"compile", model("kws_ref_model"), "--target", kEthosU128, "-o", out});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    QCOMPARE(readFile(out).mid(257, 5), QByteArray("ustar"));
  }

  void whatCannotBeWrittenIsRefused_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("reason");
    const QString vela = QString::fromStdString(
        (loupe::test::modelsDir() / "vela" / "ethos-u55-128" / "kws_ref_model_vela.tflite")
            .string());
    QTest::newRow("no target") << QStringList{model("kws_ref_model"), "--format", "tflite"}
                               << "name the NPU in --target";
    QTest::newRow("the CPU only") << QStringList{model("kws_ref_model"), "--target", "c",
                                                 "--format", "tflite"}
                                  << "name the NPU in --target";
    QTest::newRow("nothing on the NPU")
        << QStringList{model("hello_world_float"), "--target", kEthosU128, "--format", "tflite"}
        << "no operator of the model was compiled for the Ethos-U";
    QTest::newRow("a Vela file") << QStringList{vela, "--target", kEthosU128, "--format", "tflite"}
                                 << "compiled by Vela";
    QTest::newRow("a board")
        << QStringList{model("kws_ref_model"), "--target", kEthosU128, "--format", "tflite",
                       "--platform",           "host"}
        << "--platform is an option of the C code";
    QTest::newRow("a memory plan") << QStringList{model("kws_ref_model"),
                                                  "--target",
                                                  kEthosU128,
                                                  "--format",
                                                  "tflite",
                                                  "--planner",
                                                  "hill_climb"}
                                   << "--planner is an option of the C code";
    QTest::newRow("an unknown format")
        << QStringList{model("kws_ref_model"), "--target", kEthosU128, "--format", "onnx"}
        << "--format must be 'mlf'";
  }

  void whatCannotBeWrittenIsRefused() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString out = dir.filePath("out.tflite");
    const auto result =
        loupe::test::runLoupec(QStringList{"compile"} + arguments + QStringList{"-o", out});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(QString::fromUtf8(result.err).contains(reason), result.err.constData());
    QVERIFY(!QFile::exists(out));
  }
};

QTEST_GUILESS_MAIN(LoupecTfliteFormatTest)
#include "loupec_tflite_format_test.moc"
