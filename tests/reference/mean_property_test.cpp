// Quantised MEAN on drawn cases against TFLite Micro's arithmetic, written
// here a second time from its kernel (reference_ops::QuantizedMeanOrSum,
// TFLM commit 90b983c) and independently of loupe/quantized_mean.h: seeded
// shapes of rank 1 to 4, one or two reduced axes (negative, repeated, of
// length 1), with and without keep_dims, int8 and int16, scale ratios from
// 1/300 to 300 (equal ones too), zero points anywhere in the type's range,
// sums past int16 and outputs that saturate. The oracle's bytes were
// cross-checked offline against TFLM's own kernel compiled outside this
// repository (LOUPE_MEAN_CASES_DUMP=FILE writes the cases for that).
#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace mean_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct MeanCase {
  bool int16 = false;
  ir::Shape shape;
  std::vector<std::int32_t> axes;
  bool keepDims = false;
  float inScale = 1, outScale = 1;
  std::int32_t inZero = 0, outZero = 0;
  std::vector<std::int32_t> input;
};

// What TFLite Micro's MEAN gives for `c`, in the output's row-major order.
std::vector<std::int32_t> tfliteMicroMean(const MeanCase& c) {
  const int rank = static_cast<int>(c.shape.size());
  std::vector<bool> reduced(c.shape.size(), false);
  for (std::int32_t a : c.axes) reduced[static_cast<std::size_t>(a < 0 ? a + rank : a)] = true;
  std::int64_t count = 1, outputs = 1;
  for (int d = 0; d < rank; ++d) (reduced[d] ? count : outputs) *= c.shape[d];
  std::vector<std::int32_t> sums(static_cast<std::size_t>(outputs), 0);
  std::vector<int> index(c.shape.size(), 0);
  for (std::int32_t value : c.input) {
    std::int64_t at = 0;
    for (int d = 0; d < rank; ++d) {
      if (!reduced[d]) at = at * c.shape[d] + index[d];
    }
    sums[static_cast<std::size_t>(at)] =
        static_cast<std::int32_t>(static_cast<std::uint32_t>(sums[static_cast<std::size_t>(at)]) +
                                  static_cast<std::uint32_t>(value));
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < c.shape[d]) break;
      index[d] = 0;
    }
  }
  std::int32_t multiplier;
  int shift;
  tflm::quantizeMultiplier(static_cast<double>(c.inScale) / static_cast<double>(c.outScale),
                           multiplier, shift);
  // 1/count into the multiplier: up by floor(log2(count)) (at most 32, and
  // not below a total shift of -31), divided by count.
  int up = 0;
  while ((count >> (up + 1)) != 0) ++up;
  up = std::min({up, 32, 31 + shift});
  multiplier = static_cast<std::int32_t>((static_cast<std::int64_t>(multiplier) << up) / count);
  shift -= up;
  const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  std::vector<std::int32_t> result;
  for (std::int32_t sum : sums) {
    const auto centred =
        static_cast<std::int32_t>(static_cast<std::int64_t>(sum) - std::int64_t{c.inZero} * count);
    const std::int32_t value =
        tflm::multiplyByQuantizedMultiplier(centred, multiplier, shift) + c.outZero;
    result.push_back(std::clamp(value, low, high));
  }
  return result;
}

MeanCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  MeanCase c;
  c.int16 = uniform(0, 3) == 0;
  const int rank = uniform(1, 4);
  for (int d = 0; d < rank; ++d) c.shape.push_back(uniform(0, 5) == 0 ? 1 : uniform(2, 9));
  // A long reduction now and then: sums of hundreds of values.
  if (uniform(0, 4) == 0)
    c.shape[static_cast<std::size_t>(uniform(0, rank - 1))] = uniform(40, 120);
  const int axes = rank == 1 ? 1 : uniform(1, 2);
  for (int a = 0; a < axes; ++a) {
    const int axis = uniform(0, rank - 1);
    c.axes.push_back(uniform(0, 2) == 0 ? axis - rank : axis);
  }
  if (uniform(0, 7) == 0) c.axes.push_back(c.axes.front());  // repeated
  c.keepDims = uniform(0, 1) == 1;
  c.inScale = std::ldexp(1.0f + static_cast<float>(uniform(0, 999)) / 1000.0f, uniform(-12, -2));
  const int ratio = uniform(0, 5);
  c.outScale =
      ratio == 0 ? c.inScale
                 : c.inScale * std::pow(300.0f, static_cast<float>(uniform(-1000, 1000)) / 1000.0f);
  if (!c.int16) {
    c.inZero = uniform(-128, 127);
    c.outZero = ratio == 0 && uniform(0, 1) ? c.inZero : uniform(-128, 127);
  }
  std::int64_t elements = 1;
  for (auto d : c.shape) elements *= d;
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  // Sometimes a narrow band, so the means do not all clamp.
  const int centre = uniform(low, high), width = uniform(0, 1) ? (high - low) : 20;
  for (std::int64_t i = 0; i < elements; ++i) {
    c.input.push_back(std::clamp(centre + uniform(-width / 2, width / 2), low, high));
  }
  return c;
}

ir::Shape outputShape(const MeanCase& c) {
  const int rank = static_cast<int>(c.shape.size());
  ir::Shape shape;
  for (int d = 0; d < rank; ++d) {
    bool reduced = false;
    for (std::int32_t a : c.axes) reduced = reduced || (a < 0 ? a + rank : a) == d;
    if (!reduced) {
      shape.push_back(c.shape[static_cast<std::size_t>(d)]);
    } else if (c.keepDims) {
      shape.push_back(1);
    }
  }
  return shape;
}

std::vector<std::int32_t> runLoupe(const MeanCase& c) {
  const ir::DType type = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  test::GraphBuilder b;
  const int in = b.tensor("in", type, c.shape, test::perTensor(c.inScale, c.inZero));
  const int axis =
      b.constant("axis", ir::DType::Int32, {static_cast<std::int32_t>(c.axes.size())}, c.axes);
  const int out = b.tensor("out", type, outputShape(c), test::perTensor(c.outScale, c.outZero));
  b.op(ir::OpType::Mean, {in, axis}, {out}, ir::ReducerAttrs{c.keepDims});
  const ir::Graph graph = b.inputs({in}).outputs({out}).build();
  std::vector<std::uint8_t> bytes;
  for (std::int32_t v : c.input) {
    bytes.push_back(static_cast<std::uint8_t>(v));
    if (c.int16) bytes.push_back(static_cast<std::uint8_t>(v >> 8));
  }
  reference::ReferenceInterpreter interpreter(graph);
  interpreter.setInput(0, bytes);
  interpreter.invoke();
  const auto output = interpreter.output(0);
  std::vector<std::int32_t> values;
  for (std::size_t i = 0; i < output.size(); i += c.int16 ? 2 : 1) {
    values.push_back(c.int16 ? static_cast<std::int16_t>(output[i] | (output[i + 1] << 8))
                             : static_cast<std::int8_t>(output[i]));
  }
  return values;
}

}  // namespace

class MeanProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(24);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_MEAN_CASES_DUMP")) dump.open(file);
    int saturated = 0, equalScales = 0, int16 = 0;
    constexpr int kCases = 600;
    for (int n = 0; n < kCases; ++n) {
      const MeanCase c = drawCase(random);
      const auto expected = tfliteMicroMean(c);
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
      saturated += std::count(expected.begin(), expected.end(), low) +
                       std::count(expected.begin(), expected.end(), high) >
                   0;
      equalScales += c.inScale == c.outScale;
      int16 += c.int16;
      if (dump.is_open()) {
        // mean_any's stdin: bits in_scale in_zp out_scale out_zp rank dims
        // naxes axes count values, then the expected output on a line.
        dump.precision(9);
        dump << (c.int16 ? 16 : 8) << ' ' << c.inScale << ' ' << c.inZero << ' ' << c.outScale
             << ' ' << c.outZero << ' ' << c.shape.size();
        for (auto d : c.shape) dump << ' ' << d;
        dump << ' ' << c.axes.size();
        for (auto a : c.axes) dump << ' ' << a;
        dump << ' ' << c.input.size();
        for (auto v : c.input) dump << ' ' << v;
        dump << "\n";
        for (auto v : expected) dump << v << ' ';
        dump << "\n";
      }
    }
    // The draw reaches the branches it is meant to.
    QVERIFY(saturated > 20);
    QVERIFY(equalScales > 50);
    QVERIFY(int16 > 100);
  }
};

LOUPE_TEST_APPLESS_MAIN(MeanProperty)

}  // namespace mean_property_test

#include "mean_property_test.moc"
