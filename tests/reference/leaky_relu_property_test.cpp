// Quantised LEAKY_RELU on drawn cases against TFLite Micro's arithmetic,
// written here a second time from its kernel (leaky_relu_common.cc's
// CalculateOpDataLeakyRelu, reference_ops::QuantizeLeakyRelu, TFLM commit
// 90b983c) and independently of Loupe's kernels: int8 (every input value)
// and int16 (the extremes and drawn values), alphas positive, negative,
// above 1 and of the round values models use (0.1, 0.2, +-0.5, ...), input
// and output scales equal or apart, outputs that saturate. The multipliers
// come from float quotients widened to double, and a negative alpha scales
// by the multiplier's magnitude and negates the result (the rounding of a
// tie then differs from scaling by the negative multiplier). The oracle's
// bytes were cross-checked offline against TFLM's own kernel compiled
// outside this repository (LOUPE_LEAKY_RELU_CASES_DUMP=FILE writes the
// cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "test_group.h"
#include "tflm_oracle.h"
#include "unary_op_harness.h"

namespace leaky_relu_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct LeakyReluCase {
  bool int16 = false;
  float alpha = 0.2f;
  float inScale = 1, outScale = 1;
  std::int32_t inZero = 0, outZero = 0;
  std::vector<std::int32_t> input;
};

std::vector<std::int32_t> tfliteMicro(const LeakyReluCase& c) {
  std::int32_t alphaMultiplier, identityMultiplier;
  int alphaShift, identityShift;
  tflm::quantizeMultiplier(static_cast<double>(c.inScale * c.alpha / c.outScale), alphaMultiplier,
                           alphaShift);
  tflm::quantizeMultiplier(static_cast<double>(c.inScale / c.outScale), identityMultiplier,
                           identityShift);
  const bool negative = alphaMultiplier < 0;
  const std::int32_t magnitude = negative ? -alphaMultiplier : alphaMultiplier;
  const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  std::vector<std::int32_t> result;
  for (std::int32_t x : c.input) {
    const std::int32_t centred = x - c.inZero;
    std::int32_t value = c.outZero;
    if (centred >= 0) {
      value += tflm::multiplyByQuantizedMultiplier(centred, identityMultiplier, identityShift);
    } else {
      const std::int32_t scaled =
          tflm::multiplyByQuantizedMultiplier(centred, magnitude, alphaShift);
      value += negative ? -scaled : scaled;
    }
    result.push_back(std::clamp(value, low, high));
  }
  return result;
}

LeakyReluCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  LeakyReluCase c;
  c.int16 = uniform(0, 2) == 0;
  const float roundAlphas[] = {0.1f, 0.2f, 0.3f, 0.01f, 0.5f, 0.25f, -0.5f, -0.25f, -1.0f, 2.0f};
  c.alpha = uniform(0, 1) ? roundAlphas[uniform(0, 9)]
                          : static_cast<float>(uniform(-3000, 3000)) / 1000.0f;
  c.inScale = tflm::drawScale(random, c.int16 ? -14 : -8, c.int16 ? -9 : -3);
  // Equal scales (ties are likeliest with round multipliers), or apart.
  c.outScale = uniform(0, 2) == 0
                   ? c.inScale
                   : c.inScale * std::pow(4.0f, static_cast<float>(uniform(-1000, 1000)) / 1000.0f);
  if (!c.int16) {
    c.inZero = uniform(-128, 127);
    c.outZero = uniform(0, 2) == 0 ? c.inZero : uniform(-128, 127);
    for (int v = -128; v <= 127; ++v) c.input.push_back(v);
  } else {
    c.input = {-32768, -32767, -1, 0, 1, 32766, 32767};
    for (int i = 0; i < 250; ++i) c.input.push_back(uniform(-32768, 32767));
  }
  return c;
}

std::vector<std::int32_t> runLoupe(const LeakyReluCase& c) {
  test::UnaryOp op;
  op.type = ir::OpType::LeakyRelu;
  op.inputType = op.outputType = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  op.inputQuant = test::perTensor(c.inScale, c.inZero);
  op.outputQuant = test::perTensor(c.outScale, c.outZero);
  op.attributes = ir::LeakyReluAttrs{c.alpha};
  if (auto problem = op.problem()) throw std::runtime_error(*problem);
  if (c.int16) {
    const auto out =
        op.run<std::int16_t>(std::vector<std::int16_t>(c.input.begin(), c.input.end()));
    return {out.begin(), out.end()};
  }
  const auto out = op.run<std::int8_t>(std::vector<std::int8_t>(c.input.begin(), c.input.end()));
  return {out.begin(), out.end()};
}

}  // namespace

class LeakyReluProperty : public QObject {
  Q_OBJECT

 private slots:
  void negativeAlphaRoundsTiesAsTfliteMicro() {
    // alpha -0.5 with equal scales: the multiplier is -2^30. TFLite Micro
    // scales -1 by +2^30 (-0.5, a tie: gemmlowp's high multiply rounds it to
    // 0) and negates: 0. Scaling by -2^30 directly rounds +0.5 up to 1.
    LeakyReluCase c;
    c.alpha = -0.5f;
    c.inScale = c.outScale = 0.25f;
    c.input = {-1, -3, -128};
    QCOMPARE(tfliteMicro(c), (std::vector<std::int32_t>{0, 1, 64}));
    QCOMPARE(runLoupe(c), (std::vector<std::int32_t>{0, 1, 64}));
  }

  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(29);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_LEAKY_RELU_CASES_DUMP")) dump.open(file);
    int int16 = 0, negative = 0, above1 = 0, clamped = 0;
    constexpr int kCases = 1000;
    for (int n = 0; n < kCases; ++n) {
      const LeakyReluCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << "leaky_relu " << (c.int16 ? 16 : 8) << ' ' << c.alpha << ' ' << c.inScale << ' '
             << c.inZero << ' ' << c.outScale << ' ' << c.outZero << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(
              expected, [&] { return runLoupe(c); }, [&](std::size_t i) { return c.input[i]; });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1 (alpha %2): %3")
                             .arg(n)
                             .arg(static_cast<double>(c.alpha))
                             .arg(QString::fromStdString(wrong))));
      }
      int16 += c.int16;
      negative += c.alpha < 0;
      above1 += c.alpha > 1;
      const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
      clamped += std::count(expected.begin(), expected.end(), low) +
                     std::count(expected.begin(), expected.end(), high) >
                 0;
    }
    qInfo("int16 %d, alpha < 0 %d, alpha > 1 %d, saturated %d", int16, negative, above1, clamped);
    // The draw reaches the branches it is meant to.
    QVERIFY(int16 > 80 && negative > 100 && above1 > 30 && clamped > 100);
  }
};

LOUPE_TEST_APPLESS_MAIN(LeakyReluProperty)

}  // namespace leaky_relu_property_test

#include "leaky_relu_property_test.moc"
