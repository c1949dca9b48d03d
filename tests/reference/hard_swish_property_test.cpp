// int8 HARD_SWISH on drawn cases against TFLite Micro's arithmetic, written
// here a second time from its kernel (hard_swish_common.cc's
// HardSwishPrepare, DownScaleInt32ToInt16Multiplier, reference_ops::
// HardSwish on int16 fixed point, TFLM commit 90b983c) and independently of
// Loupe's kernels: every int8 input, input scales from 2^-12 to 2, output
// scales from input scale / 128 (output exponent 0) to 64 times the input
// scale, reluish multipliers with positive, zero and negative exponents,
// any zero points, outputs that saturate. The oracle's bytes were
// cross-checked offline against TFLM's own kernel compiled outside this
// repository (LOUPE_HARD_SWISH_CASES_DUMP=FILE writes the cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "test_group.h"
#include "tflm_oracle.h"
#include "unary_op_harness.h"

namespace hard_swish_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct HardSwishCase {
  float inScale = 1, outScale = 1;
  std::int32_t inZero = 0, outZero = 0;
};

// DownScaleInt32ToInt16Multiplier: round to Q0.15, 32767 at the top.
std::int16_t downScale(std::int32_t multiplier) {
  if (multiplier >= std::numeric_limits<std::int32_t>::max() - (1 << 15)) return 32767;
  return static_cast<std::int16_t>((multiplier + (1 << 15)) >> 16);
}

// gemmlowp's int16 SaturatingRoundingDoublingHighMul.
std::int16_t doublingHighMul16(std::int16_t a, std::int16_t b) {
  if (a == b && a == std::numeric_limits<std::int16_t>::min()) return 32767;
  const std::int32_t product = std::int32_t{a} * b;
  const std::int32_t nudge = product >= 0 ? (1 << 14) : (1 - (1 << 14));
  return static_cast<std::int16_t>((product + nudge) / (1 << 15));
}

// TFLM's own int16 SaturatingDoublingHighMul: truncating, no nudge.
std::int16_t truncatingDoublingHighMul16(std::int16_t a, std::int16_t b) {
  if (a == b && a == std::numeric_limits<std::int16_t>::min()) return 32767;
  return static_cast<std::int16_t>((std::int32_t{a} * b) / (1 << 15));
}

std::int16_t saturatingLeftShift16(std::int16_t value, int amount) {
  const std::int64_t result = std::int64_t{value} * (std::int64_t{1} << amount);
  return static_cast<std::int16_t>(std::clamp<std::int64_t>(result, -32768, 32767));
}

std::vector<std::int32_t> tfliteMicro(const HardSwishCase& c) {
  // HardSwishPrepare: float quotients widened to double.
  const float hiresInputScale = (1.0f / 128.0f) * c.inScale;
  const float reluishScale = 3.0f / 32768.0f;
  std::int32_t outputMultiplier32, reluishMultiplier32;
  int outputExponent, reluishExponent;
  tflm::quantizeMultiplier(static_cast<double>(hiresInputScale / c.outScale), outputMultiplier32,
                           outputExponent);
  tflm::quantizeMultiplier(static_cast<double>(hiresInputScale / reluishScale), reluishMultiplier32,
                           reluishExponent);
  const std::int16_t outputMultiplier = downScale(outputMultiplier32);
  const std::int16_t reluishMultiplier = downScale(reluishMultiplier32);
  std::vector<std::int32_t> result;
  for (int x = -128; x <= 127; ++x) {
    const auto input = static_cast<std::int16_t>(x - c.inZero);
    const auto hires = static_cast<std::int16_t>(input * (1 << 7));
    const std::int16_t preshiftOutput = doublingHighMul16(hires, outputMultiplier);
    // The reluish factor: hires rescaled so that 3 is 2^15, mapped from
    // [-1, 1] onto [0, 1].
    std::int16_t reluish = hires;
    if (reluishExponent > 0) reluish = saturatingLeftShift16(reluish, reluishExponent - 1);
    reluish = doublingHighMul16(reluish, reluishMultiplier);
    if (reluishExponent > 0) reluish = saturatingLeftShift16(reluish, 1);
    if (reluishExponent < 0) {
      reluish = static_cast<std::int16_t>(tflm::roundingDivideByPot(reluish, -reluishExponent));
    }
    reluish = static_cast<std::int16_t>((reluish + (1 << 15)) >> 1);
    const std::int16_t preshift = truncatingDoublingHighMul16(reluish, preshiftOutput);
    // The int16 sum wraps, as TFLM's int16_t output_value does.
    const auto output =
        static_cast<std::int16_t>(tflm::roundingDivideByPot(preshift, -outputExponent) + c.outZero);
    result.push_back(std::clamp<std::int32_t>(output, -128, 127));
  }
  return result;
}

HardSwishCase drawCase(std::mt19937& random) {
  HardSwishCase c;
  c.inScale = tflm::drawScale(random, -12, 0);
  // Output scale / input scale from 2^-7 (output exponent 0) to 2^6.
  c.outScale =
      c.inScale * std::pow(2.0f, static_cast<float>(tflm::uniform(random, -6999, 6000)) / 1000.0f);
  c.inZero = tflm::uniform(random, -128, 127);
  c.outZero = tflm::uniform(random, -128, 127);
  return c;
}

std::vector<std::int32_t> runLoupe(const HardSwishCase& c) {
  test::UnaryOp op;
  op.type = ir::OpType::HardSwish;
  op.inputType = op.outputType = ir::DType::Int8;
  op.inputQuant = test::perTensor(c.inScale, c.inZero);
  op.outputQuant = test::perTensor(c.outScale, c.outZero);
  if (auto problem = op.problem()) throw std::runtime_error(*problem);
  const auto out = op.run<std::int8_t>(test::allValues<std::int8_t>());
  return {out.begin(), out.end()};
}

}  // namespace

class HardSwishProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(33);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_HARD_SWISH_CASES_DUMP")) dump.open(file);
    int reluishAbove = 0, reluishBelow = 0, outputExponent0 = 0, saturated = 0;
    constexpr int kCases = 1000;
    for (int n = 0; n < kCases; ++n) {
      const HardSwishCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << "hard_swish " << c.inScale << ' ' << c.inZero << ' ' << c.outScale << ' '
             << c.outZero << ' ';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(
              expected, [&] { return runLoupe(c); },
              [](std::size_t i) { return static_cast<int>(i) - 128; });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      const double reluishReal = static_cast<double>(c.inScale / 128.0f / (3.0f / 32768.0f));
      reluishAbove += reluishReal >= 1.0;
      reluishBelow += reluishReal < 0.5;
      outputExponent0 += c.inScale / 128.0f / c.outScale >= 0.5f;
      saturated += std::count(expected.begin(), expected.end(), 127) +
                       std::count(expected.begin(), expected.end(), -128) >
                   0;
    }
    qInfo("reluish exponent > 0 %d, < 0 %d, output exponent 0 %d, saturated %d", reluishAbove,
          reluishBelow, outputExponent0, saturated);
    // The draw reaches the branches it is meant to.
    QVERIFY(reluishAbove > 200 && reluishBelow > 200 && outputExponent0 > 20 && saturated > 300);
  }
};

LOUPE_TEST_APPLESS_MAIN(HardSwishProperty)

}  // namespace hard_swish_property_test

#include "hard_swish_property_test.moc"
