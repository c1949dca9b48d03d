// The ethos-u target as a user meets it: `loupec run MODEL --target
// "ethos-u -accelerator_config=ethos-u55-256, c"` compiles the NPU region to
// a real Ethos-U command stream and runs it through the driver: on the host
// and on the Cortex-M55 board (qemu-mps3-an547, the functional model in its
// firmware) kws matches TFLite Micro on every golden set, person_detect on
// its first, and the targets line counts the NPU's operator.
#include <QtTest>

#include "loupec_process.h"
#include "test_data.h"

namespace {

QString modelFile(const char* model) {
  return QString::fromStdString((loupe::test::modelsDir() / model / "model.tflite").string());
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
}

}  // namespace

class LoupecEthosU : public QObject {
  Q_OBJECT

 private slots:
  void modelsOnTheEthosUMatchTfliteMicro_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("set");
    QTest::addColumn<QString>("platform");
    const auto sets = [](const char* model) {
      return QDir(QString::fromStdString((loupe::test::modelsDir() / model / "golden").string()))
          .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    };
    for (const char* platform : {"host", "qemu-mps3-an547"}) {
      for (const QString& set : sets("kws_ref_model")) {
        QTest::newRow(qPrintable(QString("kws %1 %2").arg(set, platform)))
            << "kws_ref_model" << set << platform;
      }
      QTest::newRow(qPrintable(QString("person_detect %1").arg(platform)))
          << "person_detect" << sets("person_detect").front() << platform;
    }
  }

  void modelsOnTheEthosUMatchTfliteMicro() {
    QFETCH(QString, model);
    QFETCH(QString, set);
    QFETCH(QString, platform);
    const auto golden =
        loupe::test::modelsDir() / model.toStdString() / "golden" / set.toStdString();
    QTemporaryDir out;
    const loupe::test::LoupecRun run = loupe::test::runLoupec(
        {"run", modelFile(model.toStdString().c_str()), "--target",
         "ethos-u -accelerator_config=ethos-u55-256, c", "--platform", platform, "--inputs",
         QString::fromStdString((golden / "input0.bin").string()), "--output-dir", out.path()},
        600000);
    const QString text = QString::fromUtf8(run.out + run.err);
    QVERIFY2(run.exitCode == 0, qPrintable(text));
    // Every operator, SOFTMAX too, counted as the model's, in one region.
    const QRegularExpressionMatch placed =
        QRegularExpression("Ethos-U ethos-u55-256: (\\d+) of (\\d+) operators in 1 region; c: 0")
            .match(text);
    QVERIFY2(placed.hasMatch(), qPrintable(text));
    QCOMPARE(placed.captured(1).toInt(), placed.captured(2).toInt());
    QCOMPARE(readAll(out.filePath("output0.bin")),
             readAll(QString::fromStdString((golden / "output0.bin").string())));
  }
};

QTEST_GUILESS_MAIN(LoupecEthosU)
#include "loupec_ethos_u_test.moc"
