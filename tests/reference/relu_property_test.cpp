// Quantised RELU and RELU6 on drawn cases against TFLite Micro's arithmetic,
// written here a second time from its kernels (activations_common.cc's
// CalculateReluOpData and Relu6Prepare, micro_utils.h's
// FloatToQuantizedType, activations.h's ReluQuantized and Relu6Quantized,
// TFLM commit 90b983c) and independently of Loupe's kernels: int8 (every
// input) and int16 (extremes and drawn values). RELU requantises (the
// multiplier from the float quotient of the scales, above and below 1, or
// equal scales) and clamps at the output's zero point; RELU6 clamps the
// input between its zero point and its quantised 6 without requantising,
// the zero point narrowed to the type as TFLM stores it. The oracle's bytes
// were cross-checked offline against TFLM's own kernels compiled outside
// this repository (LOUPE_RELU_CASES_DUMP=FILE writes the cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "test_group.h"
#include "tflm_oracle.h"
#include "unary_op_harness.h"

namespace relu_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct ReluCase {
  bool relu6 = false;
  bool int16 = false;
  float inScale = 1, outScale = 1;
  std::int32_t inZero = 0, outZero = 0;
  std::vector<std::int32_t> input;
};

std::vector<std::int32_t> tfliteMicro(const ReluCase& c) {
  const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  std::vector<std::int32_t> result;
  if (c.relu6) {
    // Relu6Quantized<T>(zero, six): both narrowed to T; the upper bound
    // is tested first.
    const auto narrow = [&c](std::int32_t v) {
      return c.int16 ? std::int32_t{static_cast<std::int16_t>(v)}
                     : std::int32_t{static_cast<std::int8_t>(v)};
    };
    const std::int32_t zero = narrow(c.inZero);
    const std::int32_t six =
        std::clamp(static_cast<std::int32_t>(std::round(6.0f / c.inScale)) + c.inZero, low, high);
    for (std::int32_t x : c.input) result.push_back(x > six ? six : (x < zero ? zero : x));
    return result;
  }
  std::int32_t multiplier;
  int shift;
  tflm::quantizeMultiplier(static_cast<double>(c.inScale / c.outScale), multiplier, shift);
  const std::int32_t actMin = std::max(low, c.outZero);  // round(0 / scale) is 0
  for (std::int32_t x : c.input) {
    const std::int32_t value =
        c.outZero + tflm::multiplyByQuantizedMultiplier(x - c.inZero, multiplier, shift);
    result.push_back(std::min(high, std::max(actMin, value)));
  }
  return result;
}

ReluCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  ReluCase c;
  c.relu6 = uniform(0, 1) == 1;
  c.int16 = uniform(0, 2) == 0;
  c.inScale = tflm::drawScale(random, c.int16 ? -13 : -7, c.int16 ? -8 : -1);
  const int kind = uniform(0, 2);
  c.outScale = kind == 0
                   ? c.inScale
                   : c.inScale * std::pow(2.0f, static_cast<float>(uniform(-3000, 3000)) / 1000.0f);
  if (!c.int16) {
    c.inZero = uniform(-128, 127);
    c.outZero = kind == 0 && uniform(0, 1) ? c.inZero : uniform(-128, 127);
    for (int v = -128; v <= 127; ++v) c.input.push_back(v);
  } else {
    c.input = {-32768, -32767, -1, 0, 1, 32766, 32767};
    for (int i = 0; i < 250; ++i) c.input.push_back(uniform(-32768, 32767));
  }
  if (c.relu6) c.outScale = c.inScale, c.outZero = c.inZero;  // TFLite's RELU6 keeps them
  return c;
}

std::vector<std::int32_t> runLoupe(const ReluCase& c) {
  test::UnaryOp op;
  op.type = c.relu6 ? ir::OpType::Relu6 : ir::OpType::Relu;
  op.inputType = op.outputType = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  op.inputQuant = test::perTensor(c.inScale, c.inZero);
  op.outputQuant = test::perTensor(c.outScale, c.outZero);
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

class ReluProperty : public QObject {
  Q_OBJECT

 private slots:
  void reluDividesTheScalesInFloat() {
    // Found by the drawn cases: TFLite Micro's CalculateReluOpData divides
    // the scales in float before widening to double; Loupe divided in double,
    // and the multiplier's last bits put 12969 at 26816 instead of 26815.
    ReluCase c;
    c.int16 = true;
    c.inScale = 0.000509765639f;
    c.outScale = 0.000246542128f;
    c.input = {12969};
    QCOMPARE(tfliteMicro(c), std::vector<std::int32_t>{26815});
    QCOMPARE(runLoupe(c), std::vector<std::int32_t>{26815});
  }

  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(34);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_RELU_CASES_DUMP")) dump.open(file);
    int relu6 = 0, int16 = 0, rescaled = 0, sixInRange = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const ReluCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << (c.relu6 ? "relu6 " : "relu ") << (c.int16 ? 16 : 8) << ' ' << c.inScale << ' '
             << c.inZero << ' ' << c.outScale << ' ' << c.outZero << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(
              expected, [&] { return runLoupe(c); }, [&](std::size_t i) { return c.input[i]; });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1 (%2): %3")
                             .arg(n)
                             .arg(c.relu6 ? "relu6" : "relu")
                             .arg(QString::fromStdString(wrong))));
      }
      relu6 += c.relu6;
      int16 += c.int16;
      rescaled += !c.relu6 && c.inScale != c.outScale;
      const double six = std::round(6.0 / c.inScale) + c.inZero;
      sixInRange += c.relu6 && six < (c.int16 ? 32767 : 127);
    }
    qInfo("relu6 %d, int16 %d, relu rescaled %d, relu6 with 6 inside the type %d", relu6, int16,
          rescaled, sixInRange);
    // The draw reaches the branches it is meant to.
    QVERIFY(relu6 > 400 && kCases - relu6 > 400 && int16 > 250 && rescaled > 200 &&
            sixInRange > 100);
  }
};

LOUPE_TEST_APPLESS_MAIN(ReluProperty)

}  // namespace relu_property_test

#include "relu_property_test.moc"
