// `loupec generate --target "npu -config=npu-128, c"` end to end, as a user
// who builds and starts the firmware by hand: the project it writes for the
// native host and for the Cortex-M55 board builds with its own Makefile, and
// the firmware, started as its platform starts it and driven over the RPC
// session, runs kws_ref_model with its NPU regions on the software NPU and
// gives TFLite's golden bytes.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "builtin_registries.h"
#include "rpc_client.h"
#include "session.h"
#include "test_data.h"

using namespace loupe;

class GenerateNpuProject : public QObject {
  Q_OBJECT

 private slots:
  void generatedProjectBuildsAndRunsBitExact_data() {
    QTest::addColumn<QString>("platformName");
    QTest::newRow("host") << QString("host");
    QTest::newRow("qemu-mps3-an547") << QString("qemu-mps3-an547");
  }

  void generatedProjectBuildsAndRunsBitExact() {
    QFETCH(QString, platformName);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto modelDir = test::modelsDir() / "kws_ref_model";
    const QString project = dir.filePath("kws-npu");

    QProcess generate;
    generate.start(
        LOUPEC_PATH,
        {"generate", QString::fromStdString((modelDir / "model.tflite").string()), "--platform",
         platformName, "--target", "npu -config=npu-128, c", "--output", project});
    QVERIFY(generate.waitForFinished(120000));
    const QString said = QString::fromUtf8(generate.readAllStandardOutput());
    QVERIFY2(generate.exitCode() == 0, qPrintable(generate.readAllStandardError()));
    QVERIFY2(said.contains("targets npu -config=npu-128, c"), qPrintable(said));

    QProcess make;
    make.start("make", {"-C", project, "-j2"});
    QVERIFY(make.waitForFinished(600000));
    QVERIFY2(make.exitCode() == 0,
             qPrintable(make.readAllStandardOutput() + make.readAllStandardError()));
    // The regions' command streams are in the generated model.
    QProcess grep;
    grep.start("grep", {"-rl", "LoupeNpuRunStream", project});
    QVERIFY(grep.waitForFinished());
    QVERIFY2(!grep.readAllStandardOutput().isEmpty(), "no NPU call in the generated project");

    const deploy::Registries registries = plugins::builtinRegistries();
    const auto platform = registries.platforms.find(platformName.toStdString());
    const auto link = platform->start(project.toStdString() + "/" + platform->firmwarePath(), {});
    host::Session session(*link);
    session.start();
    host::RpcClient rpc(session);
    for (const char* set : {"seed1", "real1"}) {
      const auto golden = modelDir / "golden" / set;
      rpc.setInput(0, test::readBytes(golden / "input0.bin"));
      rpc.run();
      QCOMPARE(rpc.getOutput(0), test::readBytes(golden / "output0.bin"));
    }
  }
};

QTEST_APPLESS_MAIN(GenerateNpuProject)
#include "generate_npu_project_test.moc"
