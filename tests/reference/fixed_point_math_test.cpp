// loupe/fixed_point_math.h: the gemmlowp fixed-point functions against their
// real-valued definitions, their exact identities, and the 16-bit and table
// helpers' documented edge behaviour.
#include <QtTest>

#include <cmath>

#include "loupe/fixed_point_math.h"
#include "test_group.h"

namespace fixed_point_math_test {

namespace {

double fromRaw(std::int32_t raw, int integerBits) {
  return std::ldexp(raw, integerBits - 31);
}
std::int32_t toRaw(double value, int integerBits) {
  return static_cast<std::int32_t>(std::lround(std::ldexp(value, 31 - integerBits)));
}

}  // namespace

class FixedPointMathTest : public QObject {
  Q_OBJECT

 private slots:
  void expOnNegativeValuesIsExp() {
    QCOMPARE(loupe_exp_on_negative_values(0, 5), INT32_MAX);
    for (const int bits : {0, 2, 5, 12}) {
      const double lowest = -std::ldexp(1.0, bits);
      double worst = 0;
      for (int i = 0; i <= 4000; ++i) {
        const double x = lowest * i / 4000.0;
        const std::int32_t raw = std::max(toRaw(x, bits), INT32_MIN + 1);
        const double got = fromRaw(loupe_exp_on_negative_values(raw, bits), 0);
        worst = std::max(worst, std::abs(got - std::exp(fromRaw(raw, bits))));
      }
      // The Taylor polynomial on [-1/4, 0) alone is good to (1/8)^5 / 120 = 2.5e-7.
      QVERIFY2(worst < 3e-7, qPrintable(QString("%1 integer bits: error %2").arg(bits).arg(worst)));
    }
    // Below -32 gemmlowp flushes to exactly zero.
    QCOMPARE(loupe_exp_on_negative_values(toRaw(-33.0, 12), 12), 0);
  }

  void oneOverOnePlusX() {
    for (int i = 0; i < 1000; ++i) {
      const double x = i / 1000.0;
      const double got = fromRaw(loupe_one_over_one_plus_x_for_x_in_0_1(toRaw(x, 0)), 0);
      QVERIFY(std::abs(got - 1.0 / (1.0 + x)) < 1e-8);
      const double ratio = fromRaw(loupe_one_minus_x_over_one_plus_x_for_x_in_0_1(toRaw(x, 0)), 0);
      QVERIFY(std::abs(ratio - (1.0 - x) / (1.0 + x)) < 1e-8);
    }
  }

  void logisticIsSymmetricAroundOneHalf() {
    QCOMPARE(loupe_logistic_q31(0, 4), 1 << 30);
    for (int i = -799; i <= 799; ++i) {  // Q4.27 holds (-16, 16)
      const std::int32_t raw = toRaw(i / 50.0, 4);
      const std::int32_t up = loupe_logistic_q31(raw, 4);
      if (i != 0) QCOMPARE(up + loupe_logistic_q31(-raw, 4), INT32_MAX);  // exact by construction
      QVERIFY(std::abs(fromRaw(up, 0) - 1.0 / (1.0 + std::exp(-i / 50.0))) < 1e-7);
    }
  }

  void tanhIsOdd() {
    QCOMPARE(loupe_tanh_q31(0, 4), 0);
    for (int i = -799; i <= 799; ++i) {
      const std::int32_t raw = toRaw(i / 50.0, 4);
      const std::int32_t t = loupe_tanh_q31(raw, 4);
      QCOMPARE(loupe_tanh_q31(-raw, 4), -t);
      QVERIFY(std::abs(fromRaw(t, 0) - std::tanh(i / 50.0)) < 2e-7);
    }
  }

  void reciprocalCarriesItsExponent() {
    int bitsOverUnit = 0;
    // 1.25 in Q12.19: 1 / 1.25 = 0.8, no extra power of two.
    const std::int32_t r = loupe_get_reciprocal(toRaw(1.25, 12), 12, &bitsOverUnit);
    QCOMPARE(bitsOverUnit, 0);
    QVERIFY(std::abs(fromRaw(r, 0) - 0.8) < 1e-8);
    // 10 = 1.25 * 2^3: 1/10 = 0.8 * 2^-3.
    const std::int32_t r10 = loupe_get_reciprocal(toRaw(10.0, 12), 12, &bitsOverUnit);
    QCOMPARE(bitsOverUnit, 3);
    QVERIFY(std::abs(fromRaw(r10, 0) - 0.8) < 1e-8);
  }

  void saturatingPowerOfTwoMultiplication() {
    QCOMPARE(loupe_saturating_rounding_multiply_by_pot(1 << 29, 1), 1 << 30);
    QCOMPARE(loupe_saturating_rounding_multiply_by_pot(1 << 30, 1), INT32_MAX);
    QCOMPARE(loupe_saturating_rounding_multiply_by_pot(-(1 << 30) - 1, 1), INT32_MIN);
    QCOMPARE(loupe_saturating_rounding_multiply_by_pot(3, -1), 2);    // 1.5 -> 2
    QCOMPARE(loupe_saturating_rounding_multiply_by_pot(-3, -1), -2);  // ties away from zero
  }

  void sixteenBitHelpers() {
    QCOMPARE(loupe_saturating_rounding_doubling_high_mul_i16(INT16_MIN, INT16_MIN), INT16_MAX);
    QCOMPARE(loupe_saturating_rounding_doubling_high_mul_i16(16384, 16384), std::int16_t{8192});
    // Rounding toward zero instead of to nearest: 3 * 16384 / 32768 = 1.5.
    QCOMPARE(loupe_saturating_doubling_high_mul_i16(3, 16384), std::int16_t{1});
    QCOMPARE(loupe_saturating_rounding_doubling_high_mul_i16(3, 16384), std::int16_t{2});
    QCOMPARE(loupe_saturating_left_shift_i16(300, 7), INT16_MAX);
    QCOMPARE(loupe_saturating_left_shift_i16(-300, 6), std::int16_t{-19200});
    QCOMPARE(loupe_rounding_divide_by_pot_i16(-96, 6), std::int16_t{-2});  // -1.5 away from 0
    QCOMPARE(loupe_rounding_divide_by_pot_i16(95, 6), std::int16_t{1});
    // gemmlowp's 16-bit instantiation beyond 15 bits: 1 for x >= 0, -1 below.
    QCOMPARE(loupe_rounding_divide_by_pot_i16(0, 17), std::int16_t{1});
    QCOMPARE(loupe_rounding_divide_by_pot_i16(-5, 17), std::int16_t{-1});
  }

  void int16TablesInterpolateTheirFunction() {
    std::int16_t lut[LOUPE_INT16_LUT_SIZE];
    // exp on [-10, 0] to [-1, 1], as int16 SOFTMAX builds it.
    loupe_lut_populate_int16(
        10.0f / 65535, 32767, 2.0f / 65535, 0, [](float x) { return std::exp(x); }, lut);
    int worst = 0;
    int worstInLastInterval = 0;
    for (int q = -32768; q <= 32767; ++q) {
      // The lookup's grid: 128 steps per table interval of 10/512.
      const double x = -10.0 + (q + 32768) * 10.0 / 65536;
      const std::int16_t got = loupe_lut_lookup_int16(static_cast<std::int16_t>(q), lut);
      const int error = static_cast<int>(std::lround(std::abs(got - std::exp(x) * 32768)));
      int& bound = q >= 32640 ? worstInLastInterval : worst;
      bound = std::max(bound, error);
      if (q > -32768) QVERIFY(got >= loupe_lut_lookup_int16(static_cast<std::int16_t>(q - 1), lut));
    }
    QVERIFY2(worst <= 2, qPrintable(QString("worst error %1").arg(worst)));
    // The lookup reaches at most 127/128 of the last interval, so exp(0)
    // itself comes out 5 steps low (as in TFLM's int16 SOFTMAX).
    QVERIFY2(worstInLastInterval <= 6,
             qPrintable(QString("last interval %1").arg(worstInLastInterval)));
    QCOMPARE(loupe_lut_lookup_int16(32767, lut), std::int16_t{32762});
    QCOMPARE(lut[LOUPE_INT16_LUT_SIZE - 1], std::int16_t{32767});
  }

  void sigmoidTableActivations() {
    QCOMPARE(loupe_logistic_int16_lut(0, 0, 0), std::int16_t{16384});
    QCOMPARE(loupe_tanh_int16_lut(0, 0, 0), std::int16_t{0});
    // Q3.12 input 1.0 is 4096: sigmoid(1) = 0.7311, tanh(1) = 0.7616 in Q0.15.
    QVERIFY(std::abs(loupe_logistic_int16_lut(4096, 0, 0) - 0.7310586 * 32768) <= 1.5);
    QVERIFY(std::abs(loupe_tanh_int16_lut(4096, 0, 0) - 0.7615942 * 32768) <= 1.5);
    // An explicit multiplier and shift: 3 * 2 / 2^1 is the power-of-two case.
    for (int x = -32768; x <= 32767; x += 101) {
      const auto q = static_cast<std::int16_t>(x);
      QCOMPARE(loupe_logistic_int16_lut(q, 6, 1), loupe_logistic_int16_lut(q, 0, 0));
      QCOMPARE(loupe_tanh_int16_lut(q, 6, 1), loupe_tanh_int16_lut(q, 0, 0));
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(FixedPointMathTest)

}  // namespace fixed_point_math_test

#include "fixed_point_math_test.moc"
