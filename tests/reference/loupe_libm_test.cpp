// loupe/loupe_libm.h: Loupe's expf, logf, sinf, cosf, expm1f and tanhf give
// the C library's bits (glibc on x86-64, where the golden data was made) on
// their edge cases, on a deterministic sample of all float32 inputs and on
// inputs whose fast path lands next to a float rounding boundary; and the
// software FMA behind those is the correctly rounded a * b + c.
// bench/float_math_bench.cpp checks all 2^32 inputs.
#include <QtTest>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "libm_functions.h"
#include "test_group.h"

namespace loupe_libm_test {

namespace {

using FloatFunction = loupe::test::LibmFunction;
const auto& kFunctions = loupe::test::kLibmFunctions;

float fromBits(std::uint32_t bits) {
  float x = 0;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

std::uint32_t bitsOf(float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// Empty when `function` gives the library's bits on x (any NaN equals any
// NaN), else a line saying where it does not.
QString mismatch(const FloatFunction& function, float x) {
  const float ours = function.loupe(x);
  const float theirs = function.library(x);
  if (std::isnan(ours) && std::isnan(theirs)) return {};
  if (bitsOf(ours) == bitsOf(theirs)) return {};
  return QString("%1(%2 = 0x%3): %4 (0x%5), the C library %6 (0x%7)")
      .arg(function.name)
      .arg(static_cast<double>(x), 0, 'g', 9)
      .arg(bitsOf(x), 8, 16, QChar('0'))
      .arg(static_cast<double>(ours), 0, 'g', 9)
      .arg(bitsOf(ours), 8, 16, QChar('0'))
      .arg(static_cast<double>(theirs), 0, 'g', 9)
      .arg(bitsOf(theirs), 8, 16, QChar('0'));
}

void compareOn(const std::vector<float>& inputs) {
  for (const FloatFunction& function : kFunctions) {
    for (const float x : inputs) {
      const QString problem = mismatch(function, x);
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
  }
}

// x and its float neighbours, each side, both signs.
void addNeighbourhood(std::vector<float>& inputs, float x, int reach = 2) {
  for (const float centre : {x, -x}) {
    float below = centre;
    float above = centre;
    inputs.push_back(centre);
    for (int i = 0; i < reach; ++i) {
      below = std::nextafter(below, -std::numeric_limits<float>::infinity());
      above = std::nextafter(above, std::numeric_limits<float>::infinity());
      inputs.push_back(below);
      inputs.push_back(above);
    }
  }
}

}  // namespace

class LoupeLibmTest : public QObject {
  Q_OBJECT

 private slots:
  void specialValuesAreTheLibrarys() {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> inputs = {0.0f,
                                 -0.0f,
                                 inf,
                                 -inf,
                                 std::numeric_limits<float>::quiet_NaN(),
                                 -std::numeric_limits<float>::quiet_NaN()};
    for (const float x : {FLT_MIN, FLT_MAX, FLT_TRUE_MIN, fromBits(0x007fffffu), 1.0f, 0.5f, 2.0f})
      addNeighbourhood(inputs, x);
    compareOn(inputs);
    // What they are, beside agreeing.
    QCOMPARE(loupe_libm_expf(0.0f), 1.0f);
    QCOMPARE(loupe_libm_expf(-inf), 0.0f);
    QCOMPARE(loupe_libm_expf(inf), inf);
    QCOMPARE(loupe_libm_logf(1.0f), 0.0f);
    QCOMPARE(loupe_libm_logf(0.0f), -inf);
    QVERIFY(std::isnan(loupe_libm_logf(-1.0f)));
    QVERIFY(std::isnan(loupe_libm_sinf(inf)));
    QCOMPARE(bitsOf(loupe_libm_sinf(-0.0f)), bitsOf(-0.0f));
    QCOMPARE(bitsOf(loupe_libm_tanhf(-0.0f)), bitsOf(-0.0f));
    QCOMPARE(bitsOf(loupe_libm_expm1f(-0.0f)), bitsOf(-0.0f));
    QCOMPARE(loupe_libm_tanhf(-inf), -1.0f);
    QCOMPARE(loupe_libm_expm1f(-inf), -1.0f);
  }

  void thresholdsAreTheLibrarys() {
    std::vector<float> inputs;
    // expf: overflow above 0x1.62e42ep6, 2^-149 from -0x1.9d1d9ep6, 0 below
    // -0x1.9fe368p6, the special-case branch from 88.
    for (const float x : {0x1.62e42ep6f, 0x1.9fe368p6f, 0x1.9d1d9ep6f, 88.0f, 87.0f})
      addNeighbourhood(inputs, x, 3);
    // logf's table boundaries around 1 and its offset 0x1.66p-1.
    for (const std::uint32_t bits : {0x3f330000u, 0x3f800000u, 0x3fb30000u, 0x3f780000u})
      addNeighbourhood(inputs, fromBits(bits), 3);
    // sinf/cosf: 2^-12 (x itself), 0.75 (no reduction), 120 (large reduction),
    // multiples of pi/2 (small results).
    for (const float x : {0x1p-12f, 0.75f, 120.0f, 1.5707964f, 3.1415927f, 4.712389f, 6.2831855f,
                          100.53097f, 1e10f, 1e30f})
      addNeighbourhood(inputs, x, 3);
    // expm1f: 2^-25, ln2/2, 3 ln2/2, 27 ln2, 88.72; tanhf: 2^-55, 1, 22.
    for (const std::uint32_t bits :
         {0x33000000u, 0x3eb17218u, 0x3f851592u, 0x4195b844u, 0x42b17180u, 0x42b17218u, 0x24000000u,
          0x3f800000u, 0x41b00000u})
      addNeighbourhood(inputs, fromBits(bits), 3);
    compareOn(inputs);
  }

  void aSampleOfAllInputsIsTheLibrarys() {
    // Every 65521st bit pattern (a prime stride: all exponents, both signs,
    // varied mantissas), 65,551 inputs.
    std::vector<float> inputs;
    for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << 32); bits += 65521)
      inputs.push_back(fromBits(static_cast<std::uint32_t>(bits)));
    // And densely where models live: [-20, 20] in steps of 1/512.
    for (int i = -20 * 512; i <= 20 * 512; ++i) inputs.push_back(static_cast<float>(i) / 512.0f);
    compareOn(inputs);
  }

  void inputsNextToARoundingBoundaryAreTheLibrarys() {
    // Inputs whose fast path (no fused multiply-adds) ends within 2^12 double
    // ulps of a float halfway point, where glibc's FMA build may round the
    // other way: the functions recompute them with the exact FMA.
    std::vector<float> expInputs;
    std::vector<float> logInputs;
    std::vector<float> sinInputs;
    for (std::uint32_t bits = 0x3c000000u; bits < 0x42b00000u && expInputs.size() < 200;
         bits += 7) {
      const float x = fromBits(bits);
      if (loupe_libm_near_float_tie(loupe_libm_expf_core(x, 0))) expInputs.push_back(x);
      if (logInputs.size() < 200 && loupe_libm_near_float_tie(loupe_libm_logf_core(bits, 0)))
        logInputs.push_back(x);
    }
    for (std::uint32_t bits = 0x3f400000u; bits < 0x4f000000u && sinInputs.size() < 200;
         bits += 11) {
      const float x = fromBits(bits);
      if (loupe_libm_near_float_tie(loupe_libm_sincosf_core(x, 0, 0))) sinInputs.push_back(x);
    }
    // The two inputs of all 2^32 where expf without the exact FMA rounds
    // the other way from glibc's FMA build (by one ulp).
    QCOMPARE(loupe_libm_expf(0x1.04845ep+5f), 0x1.f93e38p+46f);
    QCOMPARE(loupe_libm_expf(-0x1.f8cbb2p+5f), 0x1.f45326p-92f);
    expInputs.push_back(0x1.04845ep+5f);
    expInputs.push_back(-0x1.f8cbb2p+5f);
    QCOMPARE(expInputs.size(), std::size_t{202});
    QCOMPARE(logInputs.size(), std::size_t{200});
    QCOMPARE(sinInputs.size(), std::size_t{200});
    compareOn(expInputs);
    compareOn(logInputs);
    compareOn(sinInputs);
  }

  void softwareFmaIsCorrectlyRounded() {
    // Against the C library's fma (correctly rounded, in hardware or not).
    std::mt19937_64 generator(46);
    std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
    std::uniform_int_distribution<int> exponent(-60, 60);
    for (int i = 0; i < 200000; ++i) {
      const double a = std::ldexp(mantissa(generator), exponent(generator));
      const double b = std::ldexp(mantissa(generator), exponent(generator));
      // c near a * b, so that the sum cancels, half of the time.
      const double c = (i % 2) ? -a * b * (1.0 + std::ldexp(mantissa(generator), -30))
                               : std::ldexp(mantissa(generator), exponent(generator));
      const double ours = loupe_libm_fma(a, b, c);
      const double theirs = std::fma(a, b, c);
      QVERIFY2(std::memcmp(&ours, &theirs, sizeof ours) == 0,
               qPrintable(QString("fma(%1, %2, %3): %4, the C library %5")
                              .arg(a, 0, 'g', 17)
                              .arg(b, 0, 'g', 17)
                              .arg(c, 0, 'g', 17)
                              .arg(ours, 0, 'g', 17)
                              .arg(theirs, 0, 'g', 17)));
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(LoupeLibmTest)

}  // namespace loupe_libm_test

#include "loupe_libm_test.moc"
