// Quantised LOGISTIC and TANH on drawn cases against TFLite Micro's
// arithmetic,
// written here a second time from its kernels (logistic_common.cc's
// CalculateArithmeticOpDataLogistic, tanh.cc's CalculateArithmeticOpData,
// reference_integer_ops::Logistic and Tanh, gemmlowp's fixed-point logistic
// and tanh, TFLM commit 90b983c) and independently of Loupe's kernels and
// fixed-point helpers: every int8 input for input scales from 2^-10 to 2
// (the input radius beyond which the output saturates from a few steps to
// past the whole range) and any zero point; outputs on TFLite's fixed
// scales (1/256 zero point -128, 1/128 zero point 0). And int16 (every
// input): the input multiplier from CheckedLog2 (powers of two) or the
// doubling loop, then the interpolated sigmoid table; the table itself
// (256 constants) is taken from Loupe's runtime rather than written twice,
// and the offline check against TFLM's own table covers it. The oracle's
// bytes were cross-checked offline against TFLM's own kernels compiled
// outside this repository (LOUPE_LOGISTIC_TANH_CASES_DUMP=FILE writes the
// cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "loupe/fixed_point_math.h"
#include "test_group.h"
#include "tflm_oracle.h"
#include "unary_op_harness.h"

namespace logistic_tanh_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct SigmoidCase {
  bool tanh = false;
  float inScale = 1;
  std::int32_t inZero = 0;
};

std::vector<std::int32_t> tfliteMicro(const SigmoidCase& c) {
  // The input rescaled to Q4.27: frexp of scale * 2^27, the fraction
  // rounded to Q31 (without QuantizeMultiplier's carry), and the radius
  // floor(15 * 2^27 / 2^shift) outside which the output saturates.
  int shift;
  const double fraction = std::frexp(static_cast<double>(c.inScale) * (1 << 27), &shift);
  const auto multiplier = static_cast<std::int32_t>(std::round(fraction * 2147483648.0));
  const auto radius = static_cast<std::int32_t>(
      std::floor(15.0 * static_cast<double>(1LL << 27) / static_cast<double>(1LL << shift)));
  std::vector<std::int32_t> result;
  for (int x = -128; x <= 127; ++x) {
    const std::int32_t input = x - c.inZero;
    if (input <= -radius) {
      result.push_back(-128);
    } else if (input >= radius) {
      result.push_back(127);
    } else {
      const std::int32_t q4 = tflm::multiplyByQuantizedMultiplier(input, multiplier, shift);
      const std::int32_t value =
          c.tanh ? tflm::roundingDivideByPot(tflm::tanh(q4, 4), 31 - 7)
                 : tflm::roundingDivideByPot(tflm::logistic(q4, 4), 31 - 8) - 128;
      result.push_back(std::clamp(value, -128, 127));
    }
  }
  return result;
}

SigmoidCase drawCase(std::mt19937& random) {
  SigmoidCase c;
  c.tanh = tflm::uniform(random, 0, 1) == 1;
  c.inScale = tflm::drawScale(random, -10, 1);
  c.inZero = tflm::uniform(random, -128, 127);
  return c;
}

std::vector<std::int32_t> runLoupe(const SigmoidCase& c) {
  test::UnaryOp op;
  op.type = c.tanh ? ir::OpType::Tanh : ir::OpType::Logistic;
  op.inputType = op.outputType = ir::DType::Int8;
  op.inputQuant = test::perTensor(c.inScale, c.inZero);
  op.outputQuant = c.tanh ? test::perTensor(1.0f / 128, 0) : test::perTensor(1.0f / 256, -128);
  if (auto problem = op.problem()) throw std::runtime_error(*problem);
  const auto out = op.run<std::int8_t>(test::allValues<std::int8_t>());
  return {out.begin(), out.end()};
}

// --- int16 (logistic_common.cc / tanh.cc's int16 parameters,
// reference_integer_ops::Logistic and Tanh on int16) ---

struct Sigmoid16Case {
  bool tanh = false;
  float inScale = 1;
};

std::vector<std::int32_t> tfliteMicroInt16(const Sigmoid16Case& c) {
  // CheckedLog2: a power of two within 1e-3 of its log2, in float.
  const float log2 = std::log(c.inScale) * (1.0f / std::log(2.0f));
  const float rounded = std::round(log2);
  const bool powerOfTwo = std::abs(log2 - rounded) < 1e-3f;
  int leftShift = (15 - 3) + static_cast<int>(rounded);
  std::int32_t multiplier = 0;
  if (!(powerOfTwo && (leftShift == 0 || (c.tanh && leftShift == 1)))) {
    double real = static_cast<double>(c.inScale) * 4096.0 * 3.0;
    leftShift = 0;
    while (real <= 32767.0 / 2.0 && leftShift <= 30) {
      ++leftShift;
      real *= 2.0;
    }
    multiplier = static_cast<std::int32_t>(real);
  }
  if (multiplier == 0) {
    multiplier = 3 << leftShift;
    leftShift = 0;
  }
  const std::int32_t round = leftShift > 0 ? 1 << (leftShift - 1) : 0;
  std::vector<std::int32_t> result;
  for (int x = -32768; x <= 32767; ++x) {
    const std::int32_t input = (x * multiplier + round) >> leftShift;
    const std::uint32_t magnitude = static_cast<std::uint32_t>(std::abs(input));
    if (!c.tanh) {
      // Q9 interpolation between sigmoid(i / 24) samples, then Q10 to Q15.
      const std::uint32_t high = magnitude >> 9;
      std::uint32_t value;
      if (high >= 255) {
        value = 0x7FFFu << 10;
      } else {
        const std::uint32_t a = loupe_sigmoid_table_uint16(high);
        const std::uint32_t b = loupe_sigmoid_table_uint16(high + 1);
        value = (a << 9) + (magnitude & 0x1ff) * (b - a);
      }
      value = input >= 0 ? value + (1u << 9) : (1u << 25) - value + (1u << 9) - 1;
      result.push_back(static_cast<std::int16_t>(value >> 10));
    } else {
      // tanh(x) = 2 sigmoid(2x) - 1 on the same table, Q8 interpolation.
      const std::uint32_t high = magnitude >> 8;
      std::int32_t value;
      if (high >= 255) {
        value = 0xFFFF << 8;
      } else {
        const std::uint32_t a = loupe_sigmoid_table_uint16(high);
        const std::uint32_t b = loupe_sigmoid_table_uint16(high + 1);
        value = static_cast<std::int32_t>((a << 8) + (magnitude & 0xFF) * (b - a));
      }
      value = input >= 0 ? value - (1 << 23) + (1 << 7) : -value + (1 << 23) + (1 << 7) - 1;
      result.push_back(static_cast<std::int16_t>(value >> 8));
    }
  }
  return result;
}

Sigmoid16Case drawInt16Case(std::mt19937& random) {
  Sigmoid16Case c;
  c.tanh = tflm::uniform(random, 0, 1) == 1;
  // Powers of two (2^-12 and, for TANH, 2^-11 take the multiplier-free
  // path), or any scale.
  c.inScale = tflm::uniform(random, 0, 3) == 0 ? std::ldexp(1.0f, tflm::uniform(random, -14, -9))
                                               : tflm::drawScale(random, -14, -8);
  return c;
}

std::vector<std::int32_t> runLoupeInt16(const Sigmoid16Case& c) {
  test::UnaryOp op;
  op.type = c.tanh ? ir::OpType::Tanh : ir::OpType::Logistic;
  op.inputType = op.outputType = ir::DType::Int16;
  op.inputQuant = test::perTensor(c.inScale, 0);
  op.outputQuant = test::perTensor(1.0f / 32768, 0);
  if (auto problem = op.problem()) throw std::runtime_error(*problem);
  const auto out = op.run<std::int16_t>(test::allValues<std::int16_t>());
  return {out.begin(), out.end()};
}

}  // namespace

class LogisticTanhProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(31);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_LOGISTIC_TANH_CASES_DUMP")) dump.open(file);
    int tanh = 0, saturatedBelow = 0, saturatedAbove = 0, interior = 0;
    constexpr int kCases = 1000;
    for (int n = 0; n < kCases; ++n) {
      const SigmoidCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << (c.tanh ? "tanh " : "logistic ") << c.inScale << ' ' << c.inZero << ' ';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(
              expected, [&] { return runLoupe(c); },
              [](std::size_t i) { return static_cast<int>(i) - 128; });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1 (%2, scale %3, zero point %4): %5")
                             .arg(n)
                             .arg(c.tanh ? "tanh" : "logistic")
                             .arg(static_cast<double>(c.inScale))
                             .arg(c.inZero)
                             .arg(QString::fromStdString(wrong))));
      }
      tanh += c.tanh;
      saturatedBelow += expected.front() == -128;
      saturatedAbove += expected.back() == 127;
      interior += std::count_if(expected.begin(), expected.end(),
                                [](std::int32_t v) { return v > -128 && v < 127; }) > 100;
    }
    qInfo("tanh %d, logistic %d, reaching -128 %d, reaching 127 %d, mostly unsaturated %d", tanh,
          kCases - tanh, saturatedBelow, saturatedAbove, interior);
    // The draw reaches the branches it is meant to.
    QVERIFY(tanh > 400 && kCases - tanh > 400);
    QVERIFY(saturatedBelow > 300 && saturatedAbove > 300 && interior > 300);
  }
  void int16DrawnCasesMatchTfliteMicro() {
    std::mt19937 random(38);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_LOGISTIC_TANH_INT16_CASES_DUMP")) dump.open(file);
    int tanh = 0, powerOfTwo = 0;
    constexpr int kCases = 200;
    for (int n = 0; n < kCases; ++n) {
      const Sigmoid16Case c = drawInt16Case(random);
      const auto expected = tfliteMicroInt16(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << (c.tanh ? "tanh16 " : "logistic16 ") << c.inScale << ' ';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(
              expected, [&] { return runLoupeInt16(c); },
              [](std::size_t i) { return static_cast<int>(i) - 32768; });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("int16 case %1 (%2, scale %3): %4")
                             .arg(n)
                             .arg(c.tanh ? "tanh" : "logistic")
                             .arg(static_cast<double>(c.inScale))
                             .arg(QString::fromStdString(wrong))));
      }
      tanh += c.tanh;
      int exponent;
      powerOfTwo += std::frexp(c.inScale, &exponent) == 0.5f;
    }
    qInfo("int16: tanh %d, logistic %d, power-of-two scales %d", tanh, kCases - tanh, powerOfTwo);
    QVERIFY(tanh > 70 && kCases - tanh > 70 && powerOfTwo > 30);
  }
};

LOUPE_TEST_APPLESS_MAIN(LogisticTanhProperty)

}  // namespace logistic_tanh_property_test

#include "logistic_tanh_property_test.moc"
