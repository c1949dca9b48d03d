// LEAKY_RELU reference kernel: identity above zero, alpha below, with the
// rounding of TFLite's fixed-point multiply worked out by hand.
#include <QtTest>

#include "test_group.h"
#include "unary_op_harness.h"

namespace leaky_relu_test {

using namespace loupe;

namespace {

test::UnaryOp leakyRelu(ir::DType type, float inScale, std::int64_t inZero, float outScale,
                        std::int64_t outZero, float alpha) {
  return {ir::OpType::LeakyRelu,
          type,
          test::perTensor(inScale, inZero),
          type,
          test::perTensor(outScale, outZero),
          ir::LeakyReluAttrs{alpha}};
}

}  // namespace

class LeakyReluTest : public QObject {
  Q_OBJECT

 private slots:
  void int8SameScaleKeepsPositivesAndScalesNegatives() {
    const auto op = leakyRelu(ir::DType::Int8, 0.5f, 0, 0.5f, 0, 0.5f);
    // Identity multiplier 1.0 is exact. alpha 0.5 rounds half away from zero
    // for positives, and for negatives SaturatingRoundingDoublingHighMul's
    // nudge rounds -0.5 to 0 and -1.5 to -1.
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int8_t>{0, 10, 127, -10, -1, -3, -128}),
             (std::vector<std::int8_t>{0, 10, 127, -5, 0, -1, -64}));
  }

  void int8RequantisesBothSides() {
    // in: 0.1 * (q + 20); out: 0.2 * (q - 5); alpha 0.3
    const auto op = leakyRelu(ir::DType::Int8, 0.1f, -20, 0.2f, 5, 0.3f);
    // q = 80: x = 10 -> 50 + 5 = 55. q = -120: x = -10 -> -3 -> -15 + 5 = -10.
    // q = -20: x = 0 -> the output zero point.
    QCOMPARE(op.run<std::int8_t>(std::vector<std::int8_t>{80, -120, -20, 127}),
             (std::vector<std::int8_t>{55, -10, 5, 79}));
  }

  void int16Saturates() {
    const auto op = leakyRelu(ir::DType::Int16, 0.001f, 0, 0.0005f, 0, 0.1f);
    QCOMPARE(op.run<std::int16_t>(std::vector<std::int16_t>{1000, 20000, -20000, -32768}),
             (std::vector<std::int16_t>{2000, 32767, -4000, -6554}));
  }

  void float32AllowsAnyAlpha() {
    auto op = leakyRelu(ir::DType::Float32, 1, 0, 1, 0, 0.2f);
    op.inputQuant = op.outputQuant = {};
    QCOMPARE(op.run<float>(std::vector<float>{2.0f, -2.0f, 0.0f}),
             (std::vector<float>{2.0f, -0.4f, 0.0f}));
    op.attributes = ir::LeakyReluAttrs{-1.0f};  // negative alpha: |x|
    QCOMPARE(op.run<float>(std::vector<float>{-3.0f}), (std::vector<float>{3.0f}));
  }

  void refusesWhatTfliteMicroRefuses() {
    auto op = leakyRelu(ir::DType::Int8, 0.1f, 0, 0.1f, 0, 0.2f);
    QVERIFY(!op.problem().has_value());
    op.attributes = {};
    auto problem = op.problem();
    QVERIFY(problem && problem->find("alpha") != std::string::npos);
    op = leakyRelu(ir::DType::Int8, 0.1f, 0, 0.1f, 0, 0.2f);
    op.outputType = ir::DType::Int16;
    problem = op.problem();
    QVERIFY(problem &&
            problem->find("does not support int8 input with int16 output") != std::string::npos);
    op = leakyRelu(ir::DType::UInt8, 0.1f, 0, 0.1f, 0, 0.2f);
    QVERIFY(op.problem().has_value());
  }
};

LOUPE_TEST_APPLESS_MAIN(LeakyReluTest)

}  // namespace leaky_relu_test

#include "leaky_relu_test.moc"
