// IF and WHILE on the boards: a counting loop whose body holds an IF (both
// subgraphs with intermediate tensors and constants, float32 and int32),
// compiled to C and run over the RPC session on the native host and both
// QEMU boards (Cortex-M3 and Cortex-M55). The board's bytes must be what
// TFLite Micro's kernels give, as the reference interpreter's are.
#include <QtTest>

#include "builtin_registries.h"
#include "control_flow_models.h"
#include "deploy/run_on_board.h"

using namespace loupe;

class DeployControlFlow : public QObject {
  Q_OBJECT

 private slots:
  void aLoopWithABranchRunsOnEveryBoard_data() {
    QTest::addColumn<QString>("platform");
    for (const char* name : {"host", "qemu-mps2-an385", "qemu-mps3-an547"}) {
      QTest::newRow(name) << QString(name);
    }
  }

  void aLoopWithABranchRunsOnEveryBoard() {
    QFETCH(QString, platform);
    using namespace test::control_flow;
    const std::vector<float> acc = {1, 2, 3, 4, -1, -2, -3, -4};
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    request.compile.model = countingLoopModel();
    request.compile.targets = target::parseTargetString("c", registries.targets);
    request.inputs = {test::bytesOf(std::vector<std::int32_t>{0}), test::bytesOf(acc)};
    request.goldenOutputs = {test::bytesOf(std::vector<std::int32_t>{5}),
                             test::bytesOf(countingLoopExpected(0, acc))};
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    // Each output against the reference interpreter's bytes and TFLite Micro's.
    QCOMPARE(run.checks.size(), std::size_t{4});
    for (const auto& check : run.checks) QVERIFY2(check.bitExact, check.message.c_str());
    QCOMPARE(run.outputs.size(), std::size_t{2});
    QCOMPARE(test::valuesOf<float>(run.outputs[1]), countingLoopExpected(0, acc));
  }
};

QTEST_APPLESS_MAIN(DeployControlFlow)
#include "deploy_control_flow_test.moc"
