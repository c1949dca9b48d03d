// The int8 MEAN that was one step off TFLite Micro on a real model (issue
// 24), built as a graph, compiled to C and run over the RPC session on every
// built-in platform that runs generated C: the native host and both QEMU
// boards (Cortex-M3 and Cortex-M55). The board's bytes must be TFLite
// Micro's own, as the reference interpreter's and the host C's are in the
// unit tests.
#include <QtTest>

#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "tflm_mean_pooling_case.h"

using namespace loupe;

class DeployMeanRegression : public QObject {
  Q_OBJECT

 private slots:
  void globalPoolingMatchesTfliteMicroOnEveryBoard_data() {
    QTest::addColumn<QString>("platform");
    for (const char* name : {"host", "qemu-mps2-an385", "qemu-mps3-an547"}) {
      QTest::newRow(name) << QString(name);
    }
  }

  void globalPoolingMatchesTfliteMicroOnEveryBoard() {
    QFETCH(QString, platform);
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    request.compile = {
        test::tflmMeanPoolingGraph(), target::parseTargetString("c", registries.targets), {}};
    request.inputs = {test::tflmMeanPoolingInput()};
    request.goldenOutputs = {test::tflmMeanPoolingExpected()};
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    // The reference interpreter's bytes, and TFLite Micro's.
    QCOMPARE(run.checks.size(), std::size_t{2});
    QVERIFY2(run.outputsBitExact(), run.checks.back().message.c_str());
    const auto& outputs = run.outputs;
    QCOMPARE(outputs.size(), std::size_t{1});
    const auto expected = test::tflmMeanPoolingExpected();
    QCOMPARE(outputs[0].size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      QVERIFY2(outputs[0][i] == expected[i],
               qPrintable(QString("channel %1: %2, TFLite Micro %3")
                              .arg(i)
                              .arg(static_cast<std::int8_t>(outputs[0][i]))
                              .arg(static_cast<std::int8_t>(expected[i]))));
    }
  }
};

QTEST_APPLESS_MAIN(DeployMeanRegression)
#include "deploy_mean_regression_test.moc"
