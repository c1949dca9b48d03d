// The Thumb (Cortex-M3, qemu-mps2-an385), DSP (Cortex-M4, qemu-mps2-an386)
// and MVE (Cortex-M55, qemu-mps3-an547) kernels of loupe/simd_kernels.h on the boards: random int8
// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD operators (support/simd_kernel_cases.h),
// compiled for the board's CPU, built, flashed and run over the RPC session, every output compared
// byte for byte with the reference interpreter. The host runs the same operators through the
// kernels' portable C in codegen_simd_lowering.
#include <QtTest>

#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "generated_c_harness.h"
#include "simd_kernel_cases.h"

using namespace loupe;

class DeploySimdKernels : public QObject {
  Q_OBJECT

 private slots:
  void randomOperatorsMatchReferenceOnTheBoard_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<int>("seed");
    QTest::addColumn<QString>("isa");
    for (int seed = 1; seed <= 3; ++seed) {
      QTest::newRow(qPrintable(QString("an385 seed %1").arg(seed)))
          << QString("qemu-mps2-an385") << seed << QString("thumb");
      QTest::newRow(qPrintable(QString("an386 seed %1").arg(seed)))
          << QString("qemu-mps2-an386") << seed << QString("dsp");
      QTest::newRow(qPrintable(QString("an547 seed %1").arg(seed)))
          << QString("qemu-mps3-an547") << seed << QString("mve");
    }
  }

  void randomOperatorsMatchReferenceOnTheBoard() {
    QFETCH(QString, platform);
    QFETCH(int, seed);
    QFETCH(QString, isa);
    const deploy::Registries registries = plugins::builtinRegistries();
    const ir::Graph graph = test::randomSimdKernelGraph(static_cast<std::uint32_t>(seed) + 100, 16);
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    QVERIFY(request.platform != nullptr);
    request.compile = {
        graph, target::parseTargetString("c", registries.targets), {}, request.platform->cpu()};
    request.inputs = test::randomInputs(graph, static_cast<std::uint32_t>(seed));
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    deploy::BoardRunResult run;
    try {
      run = deploy::runOnBoard(std::move(request));
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    QCOMPARE(QString::fromStdString(std::string(target::cpuIsaName(run.compilation.model.isa))),
             isa);
    // One check per output (per operator), each against the reference.
    QCOMPARE(run.checks.size(), graph.outputs.size());
    for (const deploy::OutputCheck& check : run.checks) {
      QVERIFY2(check.bitExact, check.message.c_str());
    }
  }
};

QTEST_APPLESS_MAIN(DeploySimdKernels)
#include "deploy_simd_kernels_test.moc"
