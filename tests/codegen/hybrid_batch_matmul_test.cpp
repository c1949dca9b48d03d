// Hybrid BATCH_MATMUL (float32 lhs, int8 rhs), which TFLite runs and TFLite
// Micro refuses, in models written with the schema's object API: TFLite's
// own kernel-test cases (batch_matmul_test.cc) with symmetric and asymmetric
// input quantisation, weights broadcast over lhs batches and lhs rows
// broadcast over rhs matrices, adj_y, and per-channel weights. Each output
// is within TFLite's tolerance of its test's values and exactly the value of
// TFLite's kernel worked through in float32 (tests/support/
// hybrid_reference.py); generated C gives the reference's bytes.
#include <QtTest>

#include <cmath>

#include "hybrid_batch_matmul_model.h"
#include "hybrid_checks.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"

namespace hybrid_batch_matmul_test {

using namespace loupe;

namespace {

using namespace test::hybrid_bmm;
using namespace test::hybrid_checks;

std::vector<float> threeTimes(std::initializer_list<float> values) {
  std::vector<float> out;
  for (float v : values) out.insert(out.end(), 3, v);
  return out;
}

const std::vector<float> kSecondBatch(kInput.begin() + 20, kInput.end());

BmmCase simpleCase() {
  return {{2, 10}, {10, 3}, rowsOfThree(), {}, false, false, false, {2, 3}};
}

BmmCase broadcastWeights(bool asymmetric) {
  return {{2, 2, 10}, {10, 3}, rowsOfThree(), {}, false, false, asymmetric, {2, 2, 3}};
}

std::string problemOf(const BmmCase& c) {
  const auto problems = reference::findUnsupportedOperators(bmmModel(c));
  return problems.empty() ? std::string() : problems[0].reason;
}

}  // namespace

class HybridBatchMatmulTest : public QObject {
  Q_OBJECT

 private slots:
  // HybridSymmetricBatchMatMulOpTest.SimpleTestQuantizedInt8.
  void symmetricMatchesTflite() {
    const auto out = run(bmmModel(simpleCase()), kSecondBatch);
    QVERIFY2(near(out, threeTimes({194, 248}), 0.64f), text(out).constData());
    QCOMPARE(out, threeTimes({194.08518981933594f, 247.80209350585938f}));
  }

  // QuantizedInt8BroadcastWeights, both input quantisations: one [10, 3]
  // rhs under each of two lhs batches.
  void weightsBroadcastOverLhsBatches() {
    const auto symmetric = run(bmmModel(broadcastWeights(false)), kInput);
    QVERIFY2(near(symmetric, threeTimes({24, 56, 194, 248}), 1.3f), text(symmetric).constData());
    QCOMPARE(symmetric, threeTimes({24.248247146606445f, 56.38911056518555f, 194.08518981933594f,
                                    247.80209350585938f}));
    const auto asymmetric = run(bmmModel(broadcastWeights(true)), kInput);
    QVERIFY2(near(asymmetric, threeTimes({24, 58, 196, 246}), 1.3f), text(asymmetric).constData());
    QCOMPARE(asymmetric, threeTimes({23.633163452148438f, 57.43708801269531f, 195.66159057617188f,
                                     245.69338989257812f}));
  }

  // QuantizedInt8BroadcastInputs: one lhs [2, 10] under two rhs matrices.
  void lhsBroadcastOverRhsMatrices() {
    BmmCase c{{2, 10}, {2, 10, 3}, {}, {}, false, false, false, {2, 2, 3}};
    c.rhs = {1, -3, 1, 2, -2, 2, 3, -1, 3, 4, 0, 4, 5, 1, 5, 6, 2, 6, 7, 3};
    c.rhs.insert(c.rhs.end(), {7, 8, 4, 8, 9, 5, 9, 10, 6, 10});
    const std::vector<float> second = rowsOfThree();
    c.rhs.insert(c.rhs.end(), second.begin(), second.end());
    const auto out = run(bmmModel(c), std::vector<float>(kInput.begin(), kInput.begin() + 20));
    QVERIFY2(near(out, {24, -45, 24, 56, -19, 56, 24, 24, 24, 56, 56, 56}, 0.64f),
             text(out).constData());
    QCOMPARE(out[1], -44.919090270996094f);
    QCOMPARE(out[4], -18.95343780517578f);
    QCOMPARE(out[11], 56.38911056518555f);
  }

  // TestQuantizedInt8BatchesAndUnitsGreaterThanAccumDimSizeAdjY.
  void adjYMatchesTflite() {
    BmmCase c{{6, 3}, {8, 3}, {}, {}, false, true, true, {6, 8}};
    for (int i = 0; i < 8; ++i) c.rhs.insert(c.rhs.end(), {1, 2, 3});
    std::vector<float> input;
    for (int i = 0; i < 6; ++i) input.insert(input.end(), {11, 12, 13});
    const auto out = run(bmmModel(c), input);
    QVERIFY2(near(out, std::vector<float>(48, 74.0f), 0.15f), text(out).constData());
    QCOMPARE(out, std::vector<float>(48, 73.98017120361328f));
  }

  // The simple case's int8 weights read with scales 10, 20 and 5 / 127 per
  // output column.
  void perChannelWeightsScaleEachColumn() {
    BmmCase c = simpleCase();
    c.channelScales = {10.0f / 127.0f, 20.0f / 127.0f, 5.0f / 127.0f};
    QCOMPARE(run(bmmModel(c), kSecondBatch),
             (std::vector<float>{194.08518981933594f, 388.1703796386719f, 97.04259490966797f,
                                 247.80209350585938f, 495.60418701171875f, 123.90104675292969f}));
    c.asymmetric = true;
    QCOMPARE(run(bmmModel(c), kSecondBatch),
             (std::vector<float>{195.66159057617188f, 391.32318115234375f, 97.83079528808594f,
                                 245.69338989257812f, 491.38677978515625f, 122.84669494628906f}));
  }

  void formsTfliteMiscomputesAreRefusedWithTheReason() {
    BmmCase adjX{{10, 2}, {10, 3}, rowsOfThree(), {}, true, false, false, {2, 3}};
    QVERIFY2(problemOf(adjX).find("adj_x is not supported on a hybrid BATCH_MATMUL") !=
                 std::string::npos,
             problemOf(adjX).c_str());
    BmmCase twoBatches{{2, 2, 1, 10}, {10, 3}, rowsOfThree(), {},
                       false,         false,   false,         {2, 2, 1, 3}};
    QVERIFY2(problemOf(twoBatches).find("more than one batch dimension") != std::string::npos,
             problemOf(twoBatches).c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(HybridBatchMatmulTest)

}  // namespace hybrid_batch_matmul_test

#include "hybrid_batch_matmul_test.moc"
