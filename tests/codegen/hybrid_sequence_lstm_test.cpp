// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM (float32 input and states, int8
// weights), which TFLite runs and TFLite Micro refuses: TFLite's own
// kernel-test case (unidirectional_sequence_lstm_test.cc,
// NoCifgNoPeepholeNoProjection, three steps) with symmetric and asymmetric
// input quantisation, time-major and batch-major, and two batches with cell
// clipping. Every output is within TFLite's tolerance of its float goldens
// (0.0157651) and exactly the value of TFLite's kernel worked through in
// float32 with the C library's expf and tanhf (tests/support/
// hybrid_reference.py); generated C gives the reference's bytes.
#include <QtTest>

#include "hybrid_checks.h"
#include "hybrid_lstm_model.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"

namespace hybrid_sequence_lstm_test {

using namespace loupe;

namespace {

using namespace test::hybrid_lstm;
using namespace test::hybrid_checks;

const std::vector<float> kSymmetric = {
    -0.029601722955703735f, 0.12291187793016434f, 0.20990757644176483f, -0.15330739319324493f,
    -0.037116147577762604f, 0.12499701976776123f, 0.41379401087760925f, -0.20977523922920227f,
    -0.1504524052143097f,   0.09100222587585449f, 0.2449408322572708f,  -0.12326151132583618f};
const std::vector<float> kAsymmetric = {
    -0.02956685982644558f, 0.12288051098585129f, 0.20987781882286072f, -0.1540149599313736f,
    -0.0370260551571846f,  0.12495731562376022f, 0.41392531991004944f, -0.2095681130886078f,
    -0.15025487542152405f, 0.091128870844841f,   0.24481913447380066f, -0.12294714152812958f};

// Time-major rows of two batches: the sequence and its negation.
std::vector<float> twoBatchesTimeMajor() {
  std::vector<float> x;
  for (int t = 0; t < kSteps; ++t) {
    x.insert(x.end(), {kSequence[t * 2], kSequence[t * 2 + 1]});
    x.insert(x.end(), {-kSequence[t * 2], -kSequence[t * 2 + 1]});
  }
  return x;
}

}  // namespace

class HybridSequenceLstmTest : public QObject {
  Q_OBJECT

 private slots:
  void matchesTflite() {
    for (bool asymmetric : {false, true}) {
      const auto out = run(lstmModel(asymmetric), kSequence);
      QVERIFY2(near(out, kGolden, 0.0157651f), text(out).constData());
      QCOMPARE(out, asymmetric ? kAsymmetric : kSymmetric);
    }
  }

  // LstmBlackBoxTestBatchMajor: one batch, the same values.
  void batchMajorMatchesTimeMajor() {
    QCOMPARE(run(lstmModel(true, false), kSequence), kAsymmetric);
  }

  // Two batches with the cell clipped to 0.5: the first batch's values until
  // the clip bites (its third cell at the second step), and the batch-major
  // layout giving the same values as the time-major one.
  void twoBatchesWithCellClip() {
    const std::vector<float> expected = {
        -0.02956685982644558f, 0.12288051098585129f,  0.20987781882286072f,  -0.1540149599313736f,
        0.2900862395763397f,   -0.09867693483829498f, -0.10966742783784866f, 0.06402339786291122f,
        -0.0370260551571846f,  0.12495731562376022f,  0.37623104453086853f,  -0.2095681130886078f,
        0.40702399611473083f,  -0.0736221969127655f,  -0.09708928316831589f, 0.10315147787332535f,
        -0.1478583663702011f,  0.0947851911187172f,   0.22398816049098969f,  -0.12296795845031738f,
        0.28768354654312134f,  -0.1922720968723297f,  -0.1808810532093048f,  0.0643547996878624f};
    const auto timeMajor = run(lstmModel(true, true, 2, 0.5f), twoBatchesTimeMajor());
    QCOMPARE(timeMajor, expected);
    // Batch-major [batch, time, input] and [batch, time, cell].
    std::vector<float> input, reordered;
    for (int b = 0; b < 2; ++b) {
      for (int t = 0; t < kSteps; ++t) {
        const auto x = twoBatchesTimeMajor();
        input.insert(input.end(), x.begin() + (t * 2 + b) * kInputs,
                     x.begin() + (t * 2 + b + 1) * kInputs);
        reordered.insert(reordered.end(), expected.begin() + (t * 2 + b) * kCells,
                         expected.begin() + (t * 2 + b + 1) * kCells);
      }
    }
    QCOMPARE(run(lstmModel(true, false, 2, 0.5f), input), reordered);
  }
};

LOUPE_TEST_APPLESS_MAIN(HybridSequenceLstmTest)

}  // namespace hybrid_sequence_lstm_test

#include "hybrid_sequence_lstm_test.moc"
