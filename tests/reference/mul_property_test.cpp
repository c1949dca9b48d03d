// Quantised MUL on drawn cases against TFLite Micro's arithmetic, written
// here a second time from its kernel (mul_common.cc's CalculateOpDataMul and
// EvalMulQuantizedReference, reference_integer_ops::Mul and
// BroadcastMul4DSlow, TFLM commit 90b983c) and independently of Loupe's
// kernels: int8 and int16 (zero points 0), shapes of rank 1 to 4 with and
// without broadcasting on either side, one multiplier for
// scale1 * scale2 / output scale in double (above and below 1), every fused
// activation, outputs that saturate. The oracle's bytes were cross-checked
// offline against TFLM's own kernels compiled outside this repository
// (LOUPE_MUL_CASES_DUMP=FILE writes the cases for that).
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "op_graphs.h"
#include "reference/reference_interpreter.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace mul_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct BinaryCase {
  bool int16 = false;
  ir::Shape shape1, shape2, outShape;
  float scale1 = 1, scale2 = 1, outScale = 1;
  std::int32_t zero1 = 0, zero2 = 0, outZero = 0;
  ir::Activation activation = ir::Activation::None;
  std::vector<std::int32_t> input1, input2;
};

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
  std::int32_t multiplier;
  int shift;
  tflm::quantizeMultiplier(static_cast<double>(c.scale1) * static_cast<double>(c.scale2) /
                               static_cast<double>(c.outScale),
                           multiplier, shift);
  const auto [low, high] = activationRange(c);
  std::vector<std::int32_t> result;
  std::vector<int> index(c.outShape.size(), 0);
  std::int64_t count = 1;
  for (auto d : c.outShape) count *= d;
  for (std::int64_t n = 0; n < count; ++n) {
    const std::int32_t a = c.input1[broadcastOffset(c.shape1, c.outShape, index)] - c.zero1;
    const std::int32_t b = c.input2[broadcastOffset(c.shape2, c.outShape, index)] - c.zero2;
    const std::int32_t value =
        c.outZero + tflm::multiplyByQuantizedMultiplier(a * b, multiplier, shift);
    result.push_back(std::clamp(value, low, high));
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
  c.scale1 = tflm::drawScale(random, -10, -3);
  c.scale2 = uniform(0, 3) == 0 ? c.scale1 : tflm::drawScale(random, -10, -3);
  // Products of up to 2^14 (int8) or 2^30 (int16) onto the output's range,
  // sometimes with a multiplier above 1.
  const int spread = c.int16 ? 18000 : 9000;
  c.outScale =
      c.scale1 * c.scale2 * std::pow(2.0f, static_cast<float>(uniform(-2000, spread)) / 1000.0f);
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
      ir::OpType::Mul, type, c.shape1, c.shape2, c.outShape, test::perTensor(c.scale1, c.zero1),
      test::perTensor(c.scale2, c.zero2), test::perTensor(c.outScale, c.outZero),
      ir::ElementwiseAttrs{c.activation});
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

class MulProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(28);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_MUL_CASES_DUMP")) dump.open(file);
    int broadcast = 0, int16 = 0, leftShift = 0, clamped = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const BinaryCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      broadcast += c.shape1 != c.shape2;
      int16 += c.int16;
      leftShift += static_cast<double>(c.scale1) * c.scale2 > c.outScale;
      const auto [low, high] = activationRange(c);
      clamped += std::count(expected.begin(), expected.end(), low) +
                     std::count(expected.begin(), expected.end(), high) >
                 0;
      if (dump.is_open()) {
        // bits scale1 zero1 scale2 zero2 outScale outZero activation, three
        // shapes, the inputs; then the expected output on a line.
        dump.precision(9);
        dump << "mul " << (c.int16 ? 16 : 8) << ' ' << c.scale1 << ' ' << c.zero1 << ' ' << c.scale2
             << ' ' << c.zero2 << ' ' << c.outScale << ' ' << c.outZero << ' '
             << tflm::activationCode(c.activation) << ' ';
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
    qInfo("broadcast %d, int16 %d, multiplier > 1 %d, saturated %d", broadcast, int16, leftShift,
          clamped);
    // The draw reaches the branches it is meant to.
    QVERIFY(broadcast > 200);
    QVERIFY(int16 > 100);
    QVERIFY(leftShift > 50);
    QVERIFY(clamped > 100);
  }
};

LOUPE_TEST_APPLESS_MAIN(MulProperty)

}  // namespace mul_property_test

#include "mul_property_test.moc"
