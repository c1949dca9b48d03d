// Hybrid FULLY_CONNECTED (float32 activations, int8 weights) on the boards:
// TFLite's kernel-test case with symmetric and asymmetric input quantisation,
// compiled to C and run over the RPC session on the native host and both QEMU
// boards (Cortex-M3 with soft float, Cortex-M55 with its FPU). The board's
// floats must be TFLite's kernel's, as the reference interpreter's are.
#include <QtTest>

#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "hybrid_fully_connected_model.h"

using namespace loupe;

class DeployHybridFullyConnected : public QObject {
  Q_OBJECT

 private slots:
  void hybridRunsOnEveryBoard_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<bool>("asymmetric");
    for (const char* name : {"host", "qemu-mps2-an385", "qemu-mps3-an547"}) {
      for (bool asymmetric : {false, true}) {
        QTest::newRow((std::string(name) + (asymmetric ? " asymmetric" : " symmetric")).c_str())
            << QString(name) << asymmetric;
      }
    }
  }

  void hybridRunsOnEveryBoard() {
    QFETCH(QString, platform);
    QFETCH(bool, asymmetric);
    using namespace test::hybrid;
    const std::vector<float>& expected = asymmetric ? kAsymmetricOutput : kSymmetricOutput;
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    HybridCase c;
    c.asymmetric = asymmetric;
    request.compile.model = hybridModel(c);
    request.compile.targets = target::parseTargetString("c", registries.targets);
    request.inputs = {test::bytesOf(kInput)};
    request.goldenOutputs = {test::bytesOf(expected)};
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    // The output against the reference interpreter's bytes and TFLite's.
    QCOMPARE(run.checks.size(), std::size_t{2});
    for (const auto& check : run.checks) QVERIFY2(check.agrees, check.message.c_str());
    QCOMPARE(test::valuesOf<float>(run.outputs.at(0)), expected);
  }
};

QTEST_APPLESS_MAIN(DeployHybridFullyConnected)
#include "deploy_hybrid_fully_connected_test.moc"
