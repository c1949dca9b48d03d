// Hybrid FULLY_CONNECTED (float32 activations, int8 weights), which TFLite
// runs and TFLite Micro refuses, in models written with the schema's object
// API: TFLite's own kernel-test case (weights 1..10 quantised with scale
// 10/127, two batches; TFLite expects {24, 25, 26, 58, 59, 60} within 1.3,
// what its on-the-fly input quantisation costs) with symmetric and asymmetric
// input quantisation, an all-zero input (the bias exactly), and the clamping
// activations, and per-channel weights. The exact values are those of
// TFLite's kernel worked through in float32 (hybrid_fully_connected_model.h,
// tests/support/hybrid_reference.py). Generated C must give the reference's
// bytes.
#include <QtTest>

#include <cmath>

#include "hybrid_checks.h"
#include "hybrid_fully_connected_model.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"

namespace hybrid_fully_connected_test {

using namespace loupe;

namespace {

using namespace test::hybrid;
using namespace test::hybrid_checks;

}  // namespace

class HybridFullyConnectedTest : public QObject {
  Q_OBJECT

 private slots:
  void symmetricInputsMatchTflite() {
    const auto out = run(hybridModel({}), kInput);
    QVERIFY2(near(out, kExpected, 1.3f), text(out).constData());
    QCOMPARE(out, kSymmetricOutput);
  }

  // TFLite's asymmetric test allows 0.64.
  void asymmetricInputsMatchTflite() {
    HybridCase c;
    c.asymmetric = true;
    const auto out = run(hybridModel(c), kInput);
    QVERIFY2(near(out, kExpected, 0.64f), text(out).constData());
    QCOMPARE(out, kAsymmetricOutput);
  }

  // TFLite skips the product for an input of zeros: the output is the bias.
  void aZeroInputGivesTheBias() {
    for (bool asymmetric : {false, true}) {
      HybridCase c;
      c.asymmetric = asymmetric;
      const auto out = run(hybridModel(c), std::vector<float>(20, 0.0f));
      QCOMPARE(out, (std::vector<float>{1, 2, 3, 1, 2, 3}));
    }
  }

  void theActivationClampsLast() {
    HybridCase c;
    c.activation = tflite::ActivationFunctionType::RELU6;
    c.bias = {-30, 2, -60};
    const auto out = run(hybridModel(c), kInput);
    QCOMPARE(out.size(), std::size_t{6});
    QCOMPARE(out[0], 0.0f);  // 24 - 31 < 0
    QCOMPARE(out[1], 6.0f);
    QCOMPARE(out[3], 6.0f);  // 58 - 31 > 6
    QCOMPARE(out[5], 0.0f);  // 60 - 63 < 0
  }

  // Per-channel weights (the same int8 values read with scales 10, 20 and 5
  // / 127 per unit): each unit's products scaled by the row's scale times its
  // own, as TFLite's optimized kernels do, for symmetric and asymmetric
  // inputs. Within twice TFLite's tolerance (the largest scale is twice its
  // test's) of the float products, and exactly hybrid_reference.py's values.
  void perChannelWeightsScaleEachUnit() {
    HybridCase c;
    c.perChannelScales = {10.0f / 127.0f, 20.0f / 127.0f, 5.0f / 127.0f};
    const std::vector<float> real = {24.622047f, 49.244094f,  14.811024f,
                                     57.692913f, 115.385826f, 31.346457f};
    const auto symmetric = run(hybridModel(c), kInput);
    QVERIFY2(near(symmetric, real, 2.6f), text(symmetric).constData());
    QCOMPARE(symmetric,
             (std::vector<float>{25.248247146606445f, 50.49649429321289f, 15.124123573303223f,
                                 57.38911056518555f, 114.7782211303711f, 31.194555282592773f}));
    c.asymmetric = true;
    const auto asymmetric = run(hybridModel(c), kInput);
    QVERIFY2(near(asymmetric, real, 2.6f), text(asymmetric).constData());
    QCOMPARE(asymmetric,
             (std::vector<float>{24.633163452148438f, 49.266326904296875f, 14.816581726074219f,
                                 58.43708801269531f, 116.87417602539062f, 31.718544006347656f}));
  }

  // The importer already refuses scales that do not match the units.
  void perChannelScalesMustMatchTheUnits() {
    HybridCase c;
    c.perChannelScales = {0.1f, 0.2f};
    try {
      hybridModel(c);
      QFAIL("two scales for three units imported");
    } catch (const std::exception& e) {
      QVERIFY2(std::string(e.what()).find(
                   "has 2 per-channel scales but dimension 0 has 3 channels") != std::string::npos,
               e.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(HybridFullyConnectedTest)

}  // namespace hybrid_fully_connected_test

#include "hybrid_fully_connected_test.moc"
