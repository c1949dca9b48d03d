// HARD_SWISH reference kernel: exact zeros, agreement with x * relu6(x+3) / 6
// over every int8 input, and TFLM's restriction on the scales.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "test_group.h"
#include "unary_op_harness.h"

namespace hard_swish_test {

using namespace loupe;

namespace {

double hardSwish(double x) {
  return x * std::clamp(x + 3, 0.0, 6.0) / 6;
}

test::UnaryOp int8HardSwish(float inputScale, std::int64_t inputZeroPoint, float outputScale,
                            std::int64_t outputZeroPoint) {
  return {ir::OpType::HardSwish,
          ir::DType::Int8,
          test::perTensor(inputScale, inputZeroPoint),
          ir::DType::Int8,
          test::perTensor(outputScale, outputZeroPoint),
          {}};
}

}  // namespace

class HardSwishTest : public QObject {
  Q_OBJECT

 private slots:
  void int8ZeroBelowMinusThreeAndAtZero() {
    const auto op = int8HardSwish(0.05f, 10, 0.03f, -100);
    // x <= -3 and x = 0 give exactly the output zero point.
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(-128)), std::int8_t{-100});
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(-50)), std::int8_t{-100});
    QCOMPARE((op.runOne<std::int8_t, std::int8_t>(10)), std::int8_t{-100});
  }

  void int8AgreesWithFloatWithinOneStep() {
    struct Scales {
      float in;
      std::int64_t inZero;
      float out;
      std::int64_t outZero;
    };
    for (const Scales s : {Scales{0.05f, 10, 0.03f, -100}, Scales{0.1f, 0, 0.06f, -40},
                           Scales{0.02f, -128, 0.02f, -20}, Scales{0.2f, 30, 0.5f, 0}}) {
      const auto op = int8HardSwish(s.in, s.inZero, s.out, s.outZero);
      const auto inputs = test::allValues<std::int8_t>();
      const auto got = op.run<std::int8_t>(inputs);
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        const double want = std::clamp(
            hardSwish(s.in * (inputs[i] - s.inZero)) / s.out + static_cast<double>(s.outZero),
            -128.0, 127.0);
        QVERIFY2(std::abs(got[i] - want) <= 1.0,
                 qPrintable(QString("scales %1/%2 x %3: got %4, float says %5")
                                .arg(s.in)
                                .arg(s.out)
                                .arg(inputs[i])
                                .arg(got[i])
                                .arg(want)));
      }
    }
  }

  void float32MatchesTheDefinition() {
    const test::UnaryOp op{
        ir::OpType::HardSwish, ir::DType::Float32, {}, ir::DType::Float32, {}, {}};
    QCOMPARE(op.run<float>(std::vector<float>{-4.0f, -1.5f, 0.0f, 1.5f, 3.0f, 7.0f}),
             (std::vector<float>{-0.0f, -0.375f, 0.0f, 1.125f, 3.0f, 7.0f}));
  }

  void refusesWhatTfliteMicroRefuses() {
    QVERIFY(!int8HardSwish(0.05f, 0, 0.03f, 0).problem().has_value());
    // input scale / 128 above the output scale needs a left shift TFLM lacks.
    auto problem = int8HardSwish(1.0f, 0, 0.001f, 0).problem();
    QVERIFY2(
        problem && problem->find("input scale / 128 below the output scale") != std::string::npos,
        problem ? problem->c_str() : "accepted");
    auto op = int8HardSwish(0.05f, 0, 0.03f, 0);
    op.inputType = op.outputType = ir::DType::Int16;
    problem = op.problem();
    QVERIFY(problem &&
            problem->find("does not support int16 input with int16 output") != std::string::npos);
  }
};

LOUPE_TEST_APPLESS_MAIN(HardSwishTest)

}  // namespace hard_swish_test

#include "hard_swish_test.moc"
