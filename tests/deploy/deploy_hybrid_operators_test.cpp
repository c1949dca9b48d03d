// The hybrid operators (float32 activations, int8 weights) on the boards:
// TFLite's kernel-test cases of FULLY_CONNECTED, CONV_2D, BATCH_MATMUL, SVDF
// and UNIDIRECTIONAL_SEQUENCE_LSTM, symmetric and asymmetric input
// quantisation, per-tensor and per-channel weights, compiled to C and run
// over the RPC session on the native host and both QEMU boards (Cortex-M3 with soft float, Cortex-M55 with its FPU). The
// board's floats must be TFLite's kernels' (the exact values of
// tests/support/hybrid_reference.py), as the reference interpreter's are.
#include <QtTest>

#include <functional>

#include "builtin_registries.h"
#include "deploy/run_on_board.h"
#include "hybrid_batch_matmul_model.h"
#include "hybrid_conv2d_model.h"
#include "hybrid_fully_connected_model.h"
#include "hybrid_lstm_model.h"
#include "hybrid_svdf_model.h"

using namespace loupe;

namespace {

struct HybridRun {
  std::function<ir::Graph()> model;
  std::vector<float> input;
  std::vector<float> expected;
};

HybridRun hybridRun(const std::string& name) {
  if (name == "fc symmetric") {
    using namespace test::hybrid;
    return {[] { return hybridModel({}); }, kInput, kSymmetricOutput};
  }
  if (name == "fc per-channel asymmetric") {
    using namespace test::hybrid;
    return {[] {
              HybridCase c;
              c.asymmetric = true;
              c.perChannelScales = {10.0f / 127.0f, 20.0f / 127.0f, 5.0f / 127.0f};
              return hybridModel(c);
            },
            kInput,
            {24.633163452148438f, 49.266326904296875f, 14.816581726074219f, 58.43708801269531f,
             116.87417602539062f, 31.718544006347656f}};
  }
  if (name == "conv per-tensor") {
    using namespace test::hybrid_conv;
    return {[] { return convModel(simpleCase()); }, kSimpleInput, kSimpleExact};
  }
  if (name == "conv per-channel same") {
    using namespace test::hybrid_conv;
    return {[] {
              ConvCase c = simpleCase();
              c.inputShape = {2, 2, 4, 2};
              c.filterShape = {3, 2, 2, 2};
              c.filter = kChannelsFilter;
              c.perChannel = true;
              c.strideW = 1;
              c.padding = tflite::Padding::SAME;
              c.outputShape = {2, 1, 4, 3};
              return convModel(c);
            },
            kChannelsInput,
            {17.996017456054688f,
             2.0f,
             5.007843017578125f,
             17.996017456054688f,
             2.0f,
             5.007843017578125f,
             17.996017456054688f,
             2.0f,
             5.007843017578125f,
             7.988173961639404f,
             -0.9960784912109375f,
             4.0039215087890625f,
             17.0f,
             3.976470708847046f,
             3.0f,
             26.992280960083008f,
             4.007843017578125f,
             3.0f,
             37.047306060791016f,
             4.007843017578125f,
             3.0f,
             17.0f,
             -6.0f,
             3.0f}};
  }
  if (name == "svdf rank 2 asymmetric") {
    // The first of TFLite's ten steps, from a state of zeros.
    using namespace test::hybrid_svdf;
    return {
        [] { return svdfModel(2, kFeatureRank2, kTimeRank2, true); },
        std::vector<float>(kSvdfInput.begin(), kSvdfInput.begin() + kBatches * kInputSize),
        {-0.09762465208768845f, -0.10186247527599335f, 0.11102857440710068f, -0.034939464181661606f,
         0.11548388004302979f, 0.12919728457927704f, -0.1262853592634201f, 0.010359921492636204f}};
  }
  if (name == "lstm asymmetric") {
    using namespace test::hybrid_lstm;
    return {
        [] { return lstmModel(true); },
        kSequence,
        {-0.02956685982644558f, 0.12288051098585129f, 0.20987781882286072f, -0.1540149599313736f,
         -0.0370260551571846f, 0.12495731562376022f, 0.41392531991004944f, -0.2095681130886078f,
         -0.15025487542152405f, 0.091128870844841f, 0.24481913447380066f, -0.12294714152812958f}};
  }
  using namespace test::hybrid_bmm;
  // "bmm asymmetric": weights broadcast over two lhs batches.
  return {
      [] {
        return bmmModel({{2, 2, 10}, {10, 3}, rowsOfThree(), {}, false, false, true, {2, 2, 3}});
      },
      kInput,
      {23.633163452148438f, 23.633163452148438f, 23.633163452148438f, 57.43708801269531f,
       57.43708801269531f, 57.43708801269531f, 195.66159057617188f, 195.66159057617188f,
       195.66159057617188f, 245.69338989257812f, 245.69338989257812f, 245.69338989257812f}};
}

}  // namespace

class DeployHybridOperators : public QObject {
  Q_OBJECT

 private slots:
  void hybridRunsOnEveryBoard_data() {
    QTest::addColumn<QString>("platform");
    QTest::addColumn<QString>("operatorCase");
    for (const char* name : {"host", "qemu-mps2-an385", "qemu-mps3-an547"}) {
      for (const char* c :
           {"fc symmetric", "fc per-channel asymmetric", "conv per-tensor", "conv per-channel same",
            "bmm asymmetric", "svdf rank 2 asymmetric", "lstm asymmetric"}) {
        QTest::newRow((std::string(name) + " " + c).c_str()) << QString(name) << QString(c);
      }
    }
  }

  void hybridRunsOnEveryBoard() {
    QFETCH(QString, platform);
    QFETCH(QString, operatorCase);
    const HybridRun c = hybridRun(operatorCase.toStdString());
    const deploy::Registries registries = plugins::builtinRegistries();
    deploy::BoardRunRequest request;
    request.platform = registries.platforms.find(platform.toStdString());
    request.compile.model = c.model();
    request.compile.targets = target::parseTargetString("c", registries.targets);
    request.inputs = {test::bytesOf(c.input)};
    request.goldenOutputs = {test::bytesOf(c.expected)};
    request.deployment.build.cacheRoot = LOUPE_DEPLOY_TEST_CACHE;
    const deploy::BoardRunResult run = deploy::runOnBoard(std::move(request));
    // The output against the reference interpreter's bytes and TFLite's.
    QCOMPARE(run.checks.size(), std::size_t{2});
    for (const auto& check : run.checks) QVERIFY2(check.bitExact, check.message.c_str());
    QCOMPARE(test::valuesOf<float>(run.outputs.at(0)), c.expected);
    qInfo("%s: %.0f %s", qPrintable(operatorCase), run.profile.total, run.profile.unit.c_str());
  }
};

QTEST_APPLESS_MAIN(DeployHybridOperators)
#include "deploy_hybrid_operators_test.moc"
