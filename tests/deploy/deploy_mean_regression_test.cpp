// The int8 MEAN that was one step off TFLite Micro on a real model (issue
// 24), built as a graph, compiled to C and run over the RPC session on every
// built-in platform that runs generated C: the native host and both QEMU
// boards (Cortex-M3 and Cortex-M55). The board's bytes must be TFLite
// Micro's own, as the reference interpreter's and the host C's are in the
// unit tests.
#include <QtTest>

#include "codegen/model_compiler.h"
#include "platforms/builtin_platforms.h"
#include "project/deployment.h"
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
    const project::PlatformRegistry registry = platforms::builtinPlatformRegistry();
    const codegen::CompiledModel model = codegen::compileToC(test::tflmMeanPoolingGraph(), {});
    project::DeploymentOptions options;
    options.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    project::Deployment deployment(*registry.find(platform.toStdString()), model, options);
    const auto outputs = deployment.run({test::tflmMeanPoolingInput()});
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
