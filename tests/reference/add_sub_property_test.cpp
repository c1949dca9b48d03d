// Quantised ADD and SUB on drawn cases against TFLite Micro's arithmetic,
// written here a second time from its kernels (add_common.cc's parameters,
// reference_integer_ops::Add/BroadcastAdd4DSlow, reference_ops::Sub and
// BroadcastQuantSubSlow, TFLM commit 90b983c) and independently of Loupe's
// kernels: int8 (left shift 20) and int16 (left shift 15, zero points 0),
// shapes of rank 1 to 4 with and without broadcasting on either side, scales
// from equal to 1,000 apart, every fused activation TFLite allows, outputs
// that saturate; SUB's multipliers derived in float, ADD's in double, as TFLM
// does. The oracle's bytes were cross-checked offline against TFLM's
// own kernels compiled outside this repository
// (LOUPE_ADD_SUB_CASES_DUMP=FILE writes the cases for that).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>

#include "graph_builder.h"
#include "op_graphs.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace add_sub_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct BinaryCase {
  bool sub = false;
  bool int16 = false;
  ir::Shape shape1, shape2, outShape;
  float scale1 = 1, scale2 = 1, outScale = 1;
  std::int32_t zero1 = 0, zero2 = 0, outZero = 0;
  ir::Activation activation = ir::Activation::None;
  std::vector<std::int32_t> input1, input2;
};

// MultiplyByQuantizedMultiplierSmallerThanOneExp: the doubling high
// multiply, then a rounding right shift by -shift.
std::int32_t scaleDown(std::int32_t x, std::int32_t multiplier, int shift) {
  return tflm::roundingDivideByPot(tflm::doublingHighMul(x, multiplier), -shift);
}

// CalculateActivationRangeQuantized for the output, clipped to the type.
std::pair<std::int32_t, std::int32_t> activationRange(const BinaryCase& c) {
  return tflm::activationRange(c.activation, c.outScale, c.outZero, c.int16 ? -32768 : -128,
                               c.int16 ? 32767 : 127);
}

// The flat index into a broadcast operand of `shape` (right-aligned with the
// output) for the output index `index`.
std::size_t broadcastOffset(const ir::Shape& shape, const ir::Shape& out,
                            const std::vector<int>& index) {
  std::size_t at = 0;
  const std::size_t skip = out.size() - shape.size();
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const int i = shape[d] == 1 ? 0 : index[d + skip];
    at = at * static_cast<std::size_t>(shape[d]) + static_cast<std::size_t>(i);
  }
  return at;
}

std::vector<std::int32_t> tfliteMicro(const BinaryCase& c) {
  const int leftShift = c.int16 ? 15 : 20;
  std::int32_t m1, m2, mOut;
  int s1, s2, sOut;
  if (c.sub) {
    // sub_common.cc: the quotients in float, widened to double.
    const float twiceMax = 2 * std::max(c.scale1, c.scale2);
    tflm::quantizeMultiplier(c.scale1 / twiceMax, m1, s1);
    tflm::quantizeMultiplier(c.scale2 / twiceMax, m2, s2);
    tflm::quantizeMultiplier(twiceMax / (static_cast<float>(1 << leftShift) * c.outScale), mOut,
                             sOut);
  } else {
    // add_common.cc: in double.
    const double twiceMax = 2 * static_cast<double>(std::max(c.scale1, c.scale2));
    tflm::quantizeMultiplier(static_cast<double>(c.scale1) / twiceMax, m1, s1);
    tflm::quantizeMultiplier(static_cast<double>(c.scale2) / twiceMax, m2, s2);
    tflm::quantizeMultiplier(twiceMax / ((1 << leftShift) * static_cast<double>(c.outScale)), mOut,
                             sOut);
  }
  const auto [low, high] = activationRange(c);
  std::vector<std::int32_t> result;
  std::vector<int> index(c.outShape.size(), 0);
  std::int64_t count = 1;
  for (auto d : c.outShape) count *= d;
  for (std::int64_t n = 0; n < count; ++n) {
    const std::int32_t a = c.input1[broadcastOffset(c.shape1, c.outShape, index)] - c.zero1;
    const std::int32_t b = c.input2[broadcastOffset(c.shape2, c.outShape, index)] - c.zero2;
    const std::int32_t scaledA = scaleDown(a * (1 << leftShift), m1, s1);
    const std::int32_t scaledB = scaleDown(b * (1 << leftShift), m2, s2);
    const std::int32_t raw = c.sub ? scaledA - scaledB : scaledA + scaledB;
    result.push_back(std::clamp(scaleDown(raw, mOut, sOut) + c.outZero, low, high));
    for (int d = static_cast<int>(index.size()) - 1; d >= 0; --d) {
      if (++index[static_cast<std::size_t>(d)] < c.outShape[static_cast<std::size_t>(d)]) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
  return result;
}

BinaryCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  BinaryCase c;
  c.sub = uniform(0, 1) == 1;
  c.int16 = uniform(0, 3) == 0;
  const int rank = uniform(1, 4);
  for (int d = 0; d < rank; ++d) c.outShape.push_back(uniform(1, 5));
  c.shape1 = c.shape2 = c.outShape;
  // Broadcasting: a dimension of 1 on either side, or a lower rank.
  for (int d = 0; d < rank; ++d) {
    const int kind = uniform(0, 5);
    if (kind == 0) c.shape1[static_cast<std::size_t>(d)] = 1;
    if (kind == 1) c.shape2[static_cast<std::size_t>(d)] = 1;
  }
  if (rank > 1 && uniform(0, 4) == 0) {
    c.shape2.erase(c.shape2.begin());
    c.shape1.front() = c.outShape.front();  // the output's leading dimension comes from input 1
  }
  c.scale1 = std::ldexp(1.0f + static_cast<float>(uniform(0, 999)) / 1000.0f, uniform(-10, -3));
  c.scale2 = uniform(0, 3) == 0
                 ? c.scale1
                 : c.scale1 * std::pow(1000.0f, static_cast<float>(uniform(-1000, 1000)) / 1000.0f);
  c.outScale = std::max(c.scale1, c.scale2) *
               std::pow(8.0f, static_cast<float>(uniform(-1000, 1000)) / 1000.0f);
  if (!c.int16) {
    c.zero1 = uniform(-128, 127);
    c.zero2 = uniform(-128, 127);
    c.outZero = uniform(-128, 127);
  }
  const ir::Activation activations[] = {ir::Activation::None, ir::Activation::Relu,
                                        ir::Activation::Relu6, ir::Activation::ReluN1To1};
  c.activation = activations[uniform(0, 3)];
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  auto fill = [&](const ir::Shape& shape, std::vector<std::int32_t>& values) {
    std::int64_t count = 1;
    for (auto d : shape) count *= d;
    for (std::int64_t i = 0; i < count; ++i) values.push_back(uniform(low, high));
  };
  fill(c.shape1, c.input1);
  fill(c.shape2, c.input2);
  return c;
}

std::vector<std::uint8_t> bytesOf(const std::vector<std::int32_t>& values, bool int16) {
  std::vector<std::uint8_t> bytes;
  for (std::int32_t v : values) {
    bytes.push_back(static_cast<std::uint8_t>(v));
    if (int16) bytes.push_back(static_cast<std::uint8_t>(v >> 8));
  }
  return bytes;
}

std::vector<std::int32_t> runLoupe(const BinaryCase& c) {
  const ir::DType type = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  const ir::Graph graph = test::binaryOpGraph(
      c.sub ? ir::OpType::Sub : ir::OpType::Add, type, c.shape1, c.shape2, c.outShape,
      test::perTensor(c.scale1, c.zero1), test::perTensor(c.scale2, c.zero2),
      test::perTensor(c.outScale, c.outZero), ir::ElementwiseAttrs{c.activation});
  reference::ReferenceInterpreter interpreter(graph);
  interpreter.setInput(0, bytesOf(c.input1, c.int16));
  interpreter.setInput(1, bytesOf(c.input2, c.int16));
  interpreter.invoke();
  const auto output = interpreter.output(0);
  std::vector<std::int32_t> values;
  for (std::size_t i = 0; i < output.size(); i += c.int16 ? 2 : 1) {
    values.push_back(c.int16 ? static_cast<std::int16_t>(output[i] | (output[i + 1] << 8))
                             : static_cast<std::int8_t>(output[i]));
  }
  return values;
}

void dumpShape(std::ostream& out, const ir::Shape& shape) {
  out << shape.size();
  for (auto d : shape) out << ' ' << d;
}

}  // namespace

class AddSubProperty : public QObject {
  Q_OBJECT

 private slots:
  void subDerivesItsMultipliersInFloat() {
    // Found by comparing TFLite Micro's SUB with its multipliers derived in
    // float (as sub_common.cc does) and in double (as add_common.cc does):
    // scales 0.0440937504, 0.371002704 -> 0.270837903, zero points -3, 7 ->
    // 5: (-67) - (64) is -84 in TFLite Micro, -83 with double multipliers.
    BinaryCase c;
    c.sub = true;
    c.shape1 = c.shape2 = c.outShape = {1};
    c.scale1 = 0.0440937504f;
    c.scale2 = 0.371002704f;
    c.outScale = 0.270837903f;
    c.zero1 = -3;
    c.zero2 = 7;
    c.outZero = 5;
    c.input1 = {-67};
    c.input2 = {64};
    QCOMPARE(tfliteMicro(c), std::vector<std::int32_t>{-84});
    QCOMPARE(runLoupe(c), std::vector<std::int32_t>{-84});
  }

  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(17);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_ADD_SUB_CASES_DUMP")) dump.open(file);
    int broadcast = 0, int16 = 0, sub = 0, clamped = 0;
    constexpr int kCases = 800;
    for (int n = 0; n < kCases; ++n) {
      const BinaryCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      broadcast += c.shape1 != c.shape2;
      int16 += c.int16;
      sub += c.sub;
      const auto [low, high] = activationRange(c);
      clamped += std::count(expected.begin(), expected.end(), low) +
                     std::count(expected.begin(), expected.end(), high) >
                 0;
      if (dump.is_open()) {
        // op bits scale1 zero1 scale2 zero2 outScale outZero low high,
        // three shapes, the inputs; then the expected output on a line.
        dump.precision(9);
        dump << (c.sub ? "sub" : "add") << ' ' << (c.int16 ? 16 : 8) << ' ' << c.scale1 << ' '
             << c.zero1 << ' ' << c.scale2 << ' ' << c.zero2 << ' ' << c.outScale << ' '
             << c.outZero << ' ' << low << ' ' << high << ' ';
        dumpShape(dump, c.shape1);
        dump << ' ';
        dumpShape(dump, c.shape2);
        dump << ' ';
        dumpShape(dump, c.outShape);
        for (auto v : c.input1) dump << ' ' << v;
        for (auto v : c.input2) dump << ' ' << v;
        dump << "\n";
        for (auto v : expected) dump << v << ' ';
        dump << "\n";
      }
    }
    // The draw reaches the branches it is meant to.
    QVERIFY(broadcast > 200);
    QVERIFY(int16 > 100);
    QVERIFY(sub > 200);
    QVERIFY(clamped > 100);
  }
};

LOUPE_TEST_APPLESS_MAIN(AddSubProperty)

}  // namespace add_sub_property_test

#include "add_sub_property_test.moc"
