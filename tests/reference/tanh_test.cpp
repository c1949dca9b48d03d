// TANH reference kernel: exact values at 0 and at saturation, odd symmetry,
// agreement with std::tanh over every int8 input, and TFLM's int16 rules.
#include <QtTest>

#include <cmath>

#include "test_group.h"
#include "unary_op_harness.h"

namespace tanh_test {

using namespace loupe;

namespace {

test::UnaryOp int8Tanh(float inputScale, std::int64_t inputZeroPoint) {
  return {ir::OpType::Tanh,
          ir::DType::Int8,
          test::perTensor(inputScale, inputZeroPoint),
          ir::DType::Int8,
          test::perTensor(1.0f / 128, 0),
          {}};
}

test::UnaryOp int16Tanh(float inputScale) {
  return {ir::OpType::Tanh,
          ir::DType::Int16,
          test::perTensor(inputScale, 0),
          ir::DType::Int16,
          test::perTensor(1.0f / 32768, 0),
          {}};
}

}  // namespace

class TanhTest : public QObject {
  Q_OBJECT

 private slots:
  void int8ZeroAtTheZeroPointAndSaturatedFarOut() {
    const auto op = int8Tanh(0.05f, -3);
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(-3)), std::int8_t{0});
    // tanh(6.5) rounds to 1 = 128 steps of 1/128, saturating at 127;
    // tanh(-6.25) to -1, which int8 holds exactly.
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(127)), std::int8_t{127});
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(-128)), std::int8_t{-128});
  }

  void int8AgreesWithFloatWithinOneStepAndIsOdd() {
    for (const float scale : {0.01f, 0.03125f, 0.05f, 0.2f}) {
      const auto op = int8Tanh(scale, 0);
      const auto inputs = test::allValues<std::int8_t>();
      const auto got = op.run<std::int8_t>(inputs);
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        const double want =
            std::min(128 * std::tanh(static_cast<double>(scale) * inputs[i]), 127.0);
        QVERIFY2(std::abs(got[i] - want) <= 1.0,
                 qPrintable(QString("scale %1 x %2: got %3, float says %4")
                                .arg(scale)
                                .arg(inputs[i])
                                .arg(got[i])
                                .arg(want)));
        if (i > 0) QVERIFY(got[i] >= got[i - 1]);
      }
      // tanh(-x) = -tanh(x) wherever -x is an int8 and the result is not 127.
      for (int x = 1; x <= 127; ++x) {
        const auto positive = got[static_cast<std::size_t>(x + 128)];
        const auto negative = got[static_cast<std::size_t>(-x + 128)];
        if (positive < 127) QCOMPARE(static_cast<int>(negative), -positive);
      }
    }
  }

  void int16PowerOfTwoScales() {
    for (const float scale : {1.0f / 4096, 1.0f / 2048}) {  // left shift 0 and 1
      const auto op = int16Tanh(scale);
      QCOMPARE((op.runOne<std::int16_t, std::int16_t>(0)), std::int16_t{0});
      QCOMPARE((op.runOne<std::int16_t, std::int16_t>(32767)), std::int16_t{32767});
      QCOMPARE((op.runOne<std::int16_t, std::int16_t>(-32768)), std::int16_t{-32767});
    }
  }

  void int16AgreesWithFloatWithinAFewSteps() {
    for (const float scale : {1.0f / 4096, 1.0f / 2048, 0.0007f}) {
      const auto op = int16Tanh(scale);
      std::vector<std::int16_t> inputs;
      for (int x = -32768; x <= 32767; x += 53) inputs.push_back(static_cast<std::int16_t>(x));
      const auto got = op.run<std::int16_t>(inputs);
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        const double want = 32768 * std::tanh(static_cast<double>(scale) * inputs[i]);
        QVERIFY2(std::abs(got[i] - want) <= 4.0,
                 qPrintable(QString("scale %1 x %2: got %3, float says %4")
                                .arg(scale)
                                .arg(inputs[i])
                                .arg(got[i])
                                .arg(want)));
        if (i > 0) QVERIFY(got[i] >= got[i - 1]);
      }
    }
  }

  void float32IsStdTanh() {
    const test::UnaryOp op{ir::OpType::Tanh, ir::DType::Float32, {}, ir::DType::Float32, {}, {}};
    const auto got = op.run<float>(std::vector<float>{0.0f, 0.5f, -3.0f});
    QCOMPARE(got[0], 0.0f);
    QCOMPARE(got[1], std::tanh(0.5f));
    QCOMPARE(got[2], std::tanh(-3.0f));
  }

  void refusesWhatTfliteMicroRefuses() {
    QVERIFY(!int8Tanh(0.05f, 0).problem().has_value());
    auto op = int16Tanh(1.0f / 4096);
    op.outputQuant = test::perTensor(1.0f / 32768, 4);
    auto problem = op.problem();
    QVERIFY2(
        problem &&
            problem->find("output 'y' (int16 [4]) must have zero point 0") != std::string::npos &&
            problem->find("found 4") != std::string::npos,
        problem ? problem->c_str() : "accepted");
    op = int16Tanh(1.0f / 4096);
    op.outputQuant = test::perTensor(1.0f / 16384, 0);
    problem = op.problem();
    QVERIFY(problem && problem->find("must have scale 2^-15") != std::string::npos);
    op = int16Tanh(10.0f);
    problem = op.problem();
    QVERIFY(problem && problem->find("too large") != std::string::npos);
    op = int8Tanh(0.05f, 0);
    op.inputType = ir::DType::UInt8;
    problem = op.problem();
    QVERIFY(problem && problem->find("does not support uint8 input") != std::string::npos);
  }
};

LOUPE_TEST_APPLESS_MAIN(TanhTest)

}  // namespace tanh_test

#include "tanh_test.moc"
