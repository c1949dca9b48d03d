// Quantised SOFTMAX on drawn cases against TFLite Micro's arithmetic, written
// here a second time from its kernel (softmax_common.cc's
// CalculateSoftmaxParams, quantization_util.cc's PreprocessSoftmaxScaling
// and CalculateInputRadius, reference_ops::Softmax with GetReciprocal and
// gemmlowp's exp_on_negative_values and one_over_one_plus_x_for_x_in_0_1,
// TFLM commit 90b983c) and independently of Loupe's kernels and fixed-point
// helpers: int8 to int8 and int8 to int16, rows of 1 to 40 under ranks 1 to
// 4, beta 1 and others (down to 0.05, up to 10), input scales from 2^-8 to
// 2^-1 (differences beyond diff_min give the type's minimum), inputs spread
// or bunched; and int16 to int16 (InitializeLutForInt16's exp and 1/(1+x)
// tables built in float by LUTPopulateInt16, interpolated lookups,
// SoftmaxInt16), input scales 2^-14 to 2^-7. The oracle's bytes were
// cross-checked offline against TFLM's own kernel compiled outside this
// repository (LOUPE_SOFTMAX_CASES_DUMP=FILE and
// LOUPE_SOFTMAX_INT16_CASES_DUMP=FILE write the cases).
#include <QtTest>

#include <bit>
#include <cstdlib>
#include <fstream>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace softmax_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct SoftmaxCase {
  bool int16Output = false;
  ir::Shape shape;
  float beta = 1;
  float inScale = 1;
  std::int32_t inZero = 0;
  std::vector<std::int32_t> input;
};

std::vector<std::int32_t> tfliteMicro(const SoftmaxCase& c) {
  constexpr int kScaledDiffIntegerBits = 5, kAccumulationIntegerBits = 12;
  // PreprocessSoftmaxScaling: beta * scale * 2^26 in double, capped at
  // 2^31 - 1, as a multiplier with a left shift; diff_min from the radius.
  const double real = std::min(static_cast<double>(c.beta) * static_cast<double>(c.inScale) *
                                   (1 << (31 - kScaledDiffIntegerBits)),
                               2147483647.0);
  std::int32_t multiplier;
  int leftShift;
  tflm::quantizeMultiplier(real, multiplier, leftShift);
  const auto diffMin = -static_cast<std::int32_t>(
      std::floor(31.0 * static_cast<double>(1LL << 26) / static_cast<double>(1LL << leftShift)));
  const int outBits = c.int16Output ? 16 : 8;
  const std::int32_t outMin = c.int16Output ? -32768 : -128, outMax = c.int16Output ? 32767 : 127;
  const std::size_t depth = c.shape.back();
  std::vector<std::int32_t> result;
  for (std::size_t row = 0; row < c.input.size() / depth; ++row) {
    const std::int32_t* in = c.input.data() + row * depth;
    const std::int32_t max = *std::max_element(in, in + depth);
    // exp of the rescaled difference (Q5.26 in, Q0.31 out).
    auto expOf = [&](std::int32_t diff) {
      const std::int32_t scaled = tflm::doublingHighMul(
          static_cast<std::int32_t>(static_cast<std::uint32_t>(diff) << leftShift), multiplier);
      return tflm::expOnNegativeValues(scaled, kScaledDiffIntegerBits);
    };
    std::int32_t sum = 0;  // Q12.19
    for (std::size_t i = 0; i < depth; ++i) {
      if (in[i] - max >= diffMin) {
        sum =
            tflm::wrappingAdd(sum, tflm::rescale(expOf(in[i] - max), 0, kAccumulationIntegerBits));
      }
    }
    // GetReciprocal: 1 / sum as a Q0.31 value of 1 / (1 + fraction) and the
    // number of bits the sum has above 1.
    const int headroomPlusOne = std::countl_zero(static_cast<std::uint32_t>(sum));
    const int bitsOverUnit = kAccumulationIntegerBits - headroomPlusOne;
    const auto shiftedSumMinusOne = static_cast<std::int32_t>(
        (static_cast<std::uint32_t>(sum) << headroomPlusOne) - (std::uint32_t{1} << 31));
    const std::int32_t reciprocal = tflm::oneOverOnePlusX(shiftedSumMinusOne);
    const int exponent = bitsOverUnit + 31 - outBits;
    for (std::size_t i = 0; i < depth; ++i) {
      if (in[i] - max >= diffMin) {
        const std::int32_t value =
            tflm::roundingDivideByPot(tflm::doublingHighMul(reciprocal, expOf(in[i] - max)),
                                      exponent) +
            outMin;
        result.push_back(std::clamp(value, outMin, outMax));
      } else {
        result.push_back(outMin);
      }
    }
  }
  return result;
}

SoftmaxCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  SoftmaxCase c;
  c.int16Output = uniform(0, 2) == 0;
  const int rank = uniform(1, 4);
  for (int d = 0; d + 1 < rank; ++d) c.shape.push_back(uniform(1, 3));
  c.shape.push_back(uniform(0, 3) == 0 ? uniform(1, 4) : uniform(2, 40));
  const float betas[] = {1.0f, 1.0f, 1.0f, 0.5f, 2.0f, 0.05f, 10.0f};
  c.beta = uniform(0, 1) ? betas[uniform(0, 6)] : static_cast<float>(uniform(100, 3000)) / 1000.0f;
  c.inScale = tflm::drawScale(random, -8, -2);
  c.inZero = uniform(-128, 127);
  std::int64_t count = 1;
  for (auto d : c.shape) count *= d;
  // Spread over the whole type, or bunched so that few differences vanish.
  const int centre = uniform(-128, 127), width = uniform(0, 1) ? 255 : uniform(1, 30);
  for (std::int64_t i = 0; i < count; ++i) {
    c.input.push_back(std::clamp(centre + uniform(-width, width), -128, 127));
  }
  return c;
}

std::vector<std::int32_t> runLoupe(const SoftmaxCase& c) {
  test::GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int8, c.shape, test::perTensor(c.inScale, c.inZero));
  const int out =
      c.int16Output
          ? b.tensor("out", ir::DType::Int16, c.shape, test::perTensor(1.0f / 65536, -32768))
          : b.tensor("out", ir::DType::Int8, c.shape, test::perTensor(1.0f / 256, -128));
  ir::SoftmaxAttrs attrs;
  attrs.beta = c.beta;
  b.op(ir::OpType::Softmax, {in}, {out}, attrs);
  const ir::Graph graph = b.inputs({in}).outputs({out}).build();
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  const std::vector<std::int8_t> input(c.input.begin(), c.input.end());
  if (c.int16Output) {
    const auto values = test::runGraph<std::int16_t>(graph, {test::bytesOf(input)});
    return {values.begin(), values.end()};
  }
  const auto values = test::runGraph<std::int8_t>(graph, {test::bytesOf(input)});
  return {values.begin(), values.end()};
}

// --- int16 to int16 (softmax_common.cc's InitializeLutForInt16 and
// reference_ops::SoftmaxInt16) ---

// LUTPopulateInt16<float>: 512 samples of `transform` over the input range
// plus the end point, each nudged by half the error of interpolating the
// midpoint, all in float.
template <typename Transform>
std::vector<std::int16_t> populateLut(float inputScale, std::int32_t inputZero, float outputScale,
                                      std::int32_t outputZero, Transform transform) {
  const float inputMin = inputScale * static_cast<float>(-32768 - inputZero);
  const float inputMax = inputScale * static_cast<float>(32767 - inputZero);
  const float outputMin = outputScale * static_cast<float>(-32768 - outputZero);
  const float outputMax = outputScale * static_cast<float>(32767 - outputZero);
  constexpr int kSteps = 512;
  const float step = (inputMax - inputMin) / kSteps;
  const float halfStep = step / 2;
  const float scalingInverse = 65536.0f / (outputMax - outputMin);
  auto clampToInt16 = [](float v) {
    return static_cast<std::int16_t>(std::min(std::max(v, -32768.0f), 32767.0f));
  };
  std::vector<std::int16_t> lut(kSteps + 1);
  for (int i = 0; i < kSteps; ++i) {
    const float value = transform(inputMin + static_cast<float>(i) * step);
    const float midpoint = transform(inputMin + static_cast<float>(i) * step + halfStep);
    const float next = transform(inputMin + static_cast<float>(i + 1) * step);
    const float sample = std::round(value * scalingInverse);
    const float interpolated = std::round((next * scalingInverse + sample) / 2);
    const float error = interpolated - std::round(midpoint * scalingInverse);
    lut[i] = clampToInt16(sample - std::round(error / 2));
  }
  lut[kSteps] = clampToInt16(std::round(transform(inputMax) * scalingInverse));
  return lut;
}

// LUTLookup for int16: the top 9 bits index, the low 7 interpolate.
std::int16_t lookup(std::int16_t value, const std::vector<std::int16_t>& lut) {
  const auto index = static_cast<std::uint16_t>(256 + (value >> 7));
  const std::int32_t offset = value & 0x7f;
  const std::int32_t base = lut[index];
  const std::int32_t slope = lut[index + 1] - lut[index];
  return static_cast<std::int16_t>(base + ((slope * offset + 64) >> 7));
}

std::vector<std::int32_t> tfliteMicroInt16(const SoftmaxCase& c) {
  constexpr std::int32_t kRange = 65535;
  const auto expLut =
      populateLut(10.0f / kRange, 32767, 2.0f / kRange, 0, [](float v) { return std::exp(v); });
  const auto reciprocalLut = populateLut(1.0f / kRange, -32768, 2.0f / kRange, 0,
                                         [](float v) { return 1.0f / (1.0f + v); });
  // Differences scaled so that [-65535, 0] is [-10, 0]: scale * beta / (10 / 65535).
  std::int32_t multiplier;
  int shift;
  tflm::quantizeMultiplier(
      static_cast<double>(c.inScale) * static_cast<double>(c.beta) / (10.0 / 65535.0), multiplier,
      shift);
  const std::size_t depth = c.shape.back();
  std::vector<std::int32_t> result;
  for (std::size_t row = 0; row < c.input.size() / depth; ++row) {
    const std::int32_t* in = c.input.data() + row * depth;
    const std::int32_t max = *std::max_element(in, in + depth);
    std::vector<std::int16_t> exps;
    std::int32_t sum = 0;  // Q16.15
    for (std::size_t i = 0; i < depth; ++i) {
      const std::int32_t scaled =
          tflm::multiplyByQuantizedMultiplier(in[i] - max, multiplier, shift) + 32767;
      exps.push_back(lookup(static_cast<std::int16_t>(std::clamp(scaled, -32768, 32767)), expLut));
      sum += exps.back();
    }
    const int headroomPlusOne = std::countl_zero(static_cast<std::uint32_t>(sum));
    const auto shiftedSum = static_cast<std::int32_t>(
        ((static_cast<std::int64_t>(sum) << (headroomPlusOne - 1)) + (1 << 13)) >> 14);
    const std::int32_t centred = std::clamp(shiftedSum - ((1 << 15) + (1 << 16)), -32768, 32767);
    const std::int16_t reciprocal = lookup(static_cast<std::int16_t>(centred), reciprocalLut);
    const int rightShift = 31 - headroomPlusOne;
    for (std::int16_t e : exps) {
      const auto value = static_cast<std::int32_t>(
          (std::int64_t{e} * reciprocal + (std::int64_t{1} << (rightShift - 1))) >> rightShift);
      result.push_back(std::clamp(value, 0, 32767));
    }
  }
  return result;
}

SoftmaxCase drawInt16Case(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  SoftmaxCase c;
  const int rank = uniform(1, 3);
  for (int d = 0; d + 1 < rank; ++d) c.shape.push_back(uniform(1, 3));
  c.shape.push_back(uniform(0, 3) == 0 ? uniform(1, 4) : uniform(2, 40));
  c.beta = uniform(0, 1) ? 1.0f : static_cast<float>(uniform(100, 3000)) / 1000.0f;
  c.inScale = tflm::drawScale(random, -14, -8);
  std::int64_t count = 1;
  for (auto d : c.shape) count *= d;
  const int centre = uniform(-32768, 32767), width = uniform(0, 1) ? 65535 : uniform(1, 3000);
  for (std::int64_t i = 0; i < count; ++i) {
    c.input.push_back(std::clamp(centre + uniform(-width, width), -32768, 32767));
  }
  return c;
}

std::vector<std::int32_t> runLoupeInt16(const SoftmaxCase& c) {
  test::GraphBuilder b;
  const int in = b.tensor("in", ir::DType::Int16, c.shape, test::perTensor(c.inScale, 0));
  const int out = b.tensor("out", ir::DType::Int16, c.shape, test::perTensor(1.0f / 32768, 0));
  ir::SoftmaxAttrs attrs;
  attrs.beta = c.beta;
  b.op(ir::OpType::Softmax, {in}, {out}, attrs);
  const ir::Graph graph = b.inputs({in}).outputs({out}).build();
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  const std::vector<std::int16_t> input(c.input.begin(), c.input.end());
  const auto values = test::runGraph<std::int16_t>(graph, {test::bytesOf(input)});
  return {values.begin(), values.end()};
}

}  // namespace

class SoftmaxProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(32);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_SOFTMAX_CASES_DUMP")) dump.open(file);
    int int16 = 0, otherBeta = 0, belowDiffMin = 0, longRows = 0;
    constexpr int kCases = 1500;
    for (int n = 0; n < kCases; ++n) {
      const SoftmaxCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << "softmax " << (c.int16Output ? 16 : 8) << ' ' << c.beta << ' ' << c.inScale << ' '
             << c.inZero << ' ' << c.shape.back() << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      int16 += c.int16Output;
      otherBeta += c.beta != 1.0f;
      const std::int32_t outMin = c.int16Output ? -32768 : -128;
      belowDiffMin += std::count(expected.begin(), expected.end(), outMin) > 0;
      longRows += c.shape.back() > 20;
    }
    qInfo("int16 output %d, beta other than 1 %d, outputs at the minimum %d, rows over 20 %d",
          int16, otherBeta, belowDiffMin, longRows);
    // The draw reaches the branches it is meant to.
    QVERIFY(int16 > 300 && otherBeta > 600 && belowDiffMin > 300 && longRows > 400);
  }
  void int16DrawnCasesMatchTfliteMicro() {
    std::mt19937 random(37);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_SOFTMAX_INT16_CASES_DUMP")) dump.open(file);
    int otherBeta = 0, spread = 0, longRows = 0;
    constexpr int kCases = 1000;
    for (int n = 0; n < kCases; ++n) {
      const SoftmaxCase c = drawInt16Case(random);
      const auto expected = tfliteMicroInt16(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << "softmax16 " << c.beta << ' ' << c.inScale << ' ' << c.shape.back() << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupeInt16(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("int16 case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      otherBeta += c.beta != 1.0f;
      spread += *std::max_element(c.input.begin(), c.input.end()) -
                    *std::min_element(c.input.begin(), c.input.end()) >
                10000;
      longRows += c.shape.back() > 20;
    }
    qInfo("int16: beta other than 1 %d, inputs spread over 10000 steps %d, rows over 20 %d",
          otherBeta, spread, longRows);
    QVERIFY(otherBeta > 300 && spread > 300 && longRows > 300);
  }
};

LOUPE_TEST_APPLESS_MAIN(SoftmaxProperty)

}  // namespace softmax_property_test

#include "softmax_property_test.moc"
