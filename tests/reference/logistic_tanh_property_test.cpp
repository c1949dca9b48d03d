// int8 LOGISTIC and TANH on drawn cases against TFLite Micro's arithmetic,
// written here a second time from its kernels (logistic_common.cc's
// CalculateArithmeticOpDataLogistic, tanh.cc's CalculateArithmeticOpData,
// reference_integer_ops::Logistic and Tanh, gemmlowp's fixed-point logistic
// and tanh, TFLM commit 90b983c) and independently of Loupe's kernels and
// fixed-point helpers: every int8 input for input scales from 2^-10 to 2
// (the input radius beyond which the output saturates from a few steps to
// past the whole range) and any zero point; outputs on TFLite's fixed
// scales (1/256 zero point -128, 1/128 zero point 0). The int16 paths
// (interpolated tables) are not covered here. The oracle's bytes were
// cross-checked offline against TFLM's own kernels compiled outside this
// repository (LOUPE_LOGISTIC_TANH_CASES_DUMP=FILE writes the cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "tflm_oracle.h"
#include "unary_op_harness.h"

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
      std::vector<std::int32_t> actual;
      try {
        actual = runLoupe(c);
      } catch (const std::exception& error) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(error.what())));
      }
      if (actual != expected) {
        std::size_t i = 0;
        while (actual[i] == expected[i]) ++i;
        QFAIL(qPrintable(QString("case %1 (%2, scale %3, zero point %4) differs at input %5: %6, "
                                 "TFLite Micro %7")
                             .arg(n)
                             .arg(c.tanh ? "tanh" : "logistic")
                             .arg(static_cast<double>(c.inScale))
                             .arg(c.inZero)
                             .arg(static_cast<int>(i) - 128)
                             .arg(actual[i])
                             .arg(expected[i])));
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
};

QTEST_APPLESS_MAIN(LogisticTanhProperty)
#include "logistic_tanh_property_test.moc"
