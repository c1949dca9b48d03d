// LOGISTIC reference kernel: exact values at 0 and at saturation, agreement
// with the float sigmoid over every int8 input, monotonicity, and the
// quantisation TFLM requires.
#include <QtTest>

#include <cmath>

#include "test_group.h"
#include "unary_op_harness.h"

namespace logistic_test {

using namespace loupe;

namespace {

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

test::UnaryOp int8Logistic(float inputScale, std::int64_t inputZeroPoint) {
  return {ir::OpType::Logistic,
          ir::DType::Int8,
          test::perTensor(inputScale, inputZeroPoint),
          ir::DType::Int8,
          test::perTensor(1.0f / 256, -128),
          {}};
}

test::UnaryOp int16Logistic(float inputScale) {
  return {ir::OpType::Logistic,
          ir::DType::Int16,
          test::perTensor(inputScale, 0),
          ir::DType::Int16,
          test::perTensor(1.0f / 32768, 0),
          {}};
}

}  // namespace

class LogisticTest : public QObject {
  Q_OBJECT

 private slots:
  void int8HalfAtTheZeroPointAndSaturatedFarOut() {
    const auto op = int8Logistic(0.1f, 7);
    // sigmoid(0) = 1/2 is 128 steps of 1/256 above the zero point -128.
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(7)), std::int8_t{0});
    // sigmoid(12) rounds to 1: 256 steps saturate at 127; sigmoid(-13.5) to 0.
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(127)), std::int8_t{127});
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(-128)), std::int8_t{-128});
  }

  void int8AgreesWithFloatWithinOneStepAndIsMonotonic() {
    for (const float scale : {0.01f, 0.0625f, 0.1f, 0.37f}) {
      for (const std::int64_t zeroPoint : {-128, 0, 25}) {
        const auto op = int8Logistic(scale, zeroPoint);
        const auto inputs = test::allValues<std::int8_t>();
        const auto got = op.run<std::int8_t>(inputs);
        for (std::size_t i = 0; i < inputs.size(); ++i) {
          const double want = std::min(256 * sigmoid(scale * (inputs[i] - zeroPoint)) - 128, 127.0);
          QVERIFY2(std::abs(got[i] - want) <= 1.0,
                   qPrintable(QString("scale %1 zp %2 x %3: got %4, float says %5")
                                  .arg(scale)
                                  .arg(zeroPoint)
                                  .arg(inputs[i])
                                  .arg(got[i])
                                  .arg(want)));
          if (i > 0) QVERIFY(got[i] >= got[i - 1]);
        }
      }
    }
  }

  void int16PowerOfTwoScaleUsesTheTableDirectly() {
    const auto op = int16Logistic(1.0f / 4096);  // Q3.12: multiplier 0
    QCOMPARE((op.runOne<std::int16_t, std::int16_t>(0)), std::int16_t{16384});
    // Beyond the table (|x| >= 10.6) TFLM saturates to 32767 and 1.
    const auto wide = int16Logistic(1.0f / 2048);  // Q4.11 reaches +-16
    QCOMPARE((wide.runOne<std::int16_t, std::int16_t>(32767)), std::int16_t{32767});
    QCOMPARE((wide.runOne<std::int16_t, std::int16_t>(-32768)), std::int16_t{1});
  }

  void int16AgreesWithFloatWithinAFewSteps() {
    for (const float scale : {1.0f / 4096, 0.001f, 1.0f / 2048}) {
      const auto op = int16Logistic(scale);
      std::vector<std::int16_t> inputs;
      for (int x = -32768; x <= 32767; x += 61) inputs.push_back(static_cast<std::int16_t>(x));
      const auto got = op.run<std::int16_t>(inputs);
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        const double want = 32768 * sigmoid(scale * inputs[i]);
        QVERIFY2(std::abs(got[i] - want) <= 3.0,
                 qPrintable(QString("scale %1 x %2: got %3, float says %4")
                                .arg(scale)
                                .arg(inputs[i])
                                .arg(got[i])
                                .arg(want)));
        if (i > 0) QVERIFY(got[i] >= got[i - 1]);
      }
    }
  }

  void float32FollowsTflitesCutoffs() {
    const test::UnaryOp op{
        ir::OpType::Logistic, ir::DType::Float32, {}, ir::DType::Float32, {}, {}};
    const auto got = op.run<float>(std::vector<float>{0.0f, 2.0f, -20.0f, 30.0f});
    QCOMPARE(got[0], 0.5f);
    QVERIFY(std::abs(got[1] - sigmoid(2.0)) < 1e-7);
    QCOMPARE(got[2], std::exp(-20.0f));  // below -9: exp(x)
    QCOMPARE(got[3], 1.0f);              // above 16.6: exactly 1
  }

  void refusesWhatTfliteMicroRefuses() {
    auto op = int8Logistic(0.1f, 0);
    QVERIFY(!op.problem().has_value());
    op.outputQuant = test::perTensor(1.0f / 256, 0);
    auto problem = op.problem();
    QVERIFY2(
        problem &&
            problem->find("output 'y' (int8 [4]) must have zero point -128") != std::string::npos &&
            problem->find("found 0") != std::string::npos,
        problem ? problem->c_str() : "accepted");

    op = int8Logistic(0.1f, 0);
    op.outputType = ir::DType::Int16;
    problem = op.problem();
    QVERIFY(problem &&
            problem->find("does not support int8 input with int16 output") != std::string::npos);

    auto int16 = int16Logistic(0.001f);
    int16.outputQuant = test::perTensor(1.0f / 1000, 0);
    problem = int16.problem();
    QVERIFY2(problem && problem->find("must have scale 2^-15") != std::string::npos,
             problem ? problem->c_str() : "accepted");
    int16 = int16Logistic(0.001f);
    int16.inputQuant = test::perTensor(0.001f, 5);
    problem = int16.problem();
    QVERIFY2(problem &&
                 problem->find("input 'x' (int16 [4]) must have zero point 0") != std::string::npos,
             problem ? problem->c_str() : "accepted");

    op = int8Logistic(0.1f, 0);
    op.inputQuant = {};
    problem = op.problem();
    QVERIFY(problem && problem->find("has no quantisation parameters") != std::string::npos);
  }
};

LOUPE_TEST_APPLESS_MAIN(LogisticTest)

}  // namespace logistic_test

#include "logistic_test.moc"
