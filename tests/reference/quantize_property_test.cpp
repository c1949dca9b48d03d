// QUANTIZE and DEQUANTIZE on drawn cases against TFLite Micro's arithmetic,
// written here a second time from its kernels (quantize_common.cc's
// PrepareQuantizeReference and EvalQuantizeReference, reference_ops::
// AffineQuantize, Requantize and Dequantize, TFLM commit 90b983c) and
// independently of Loupe's kernels: float32 to int8/int16 (the float
// quotient rounded half away from zero, ties included, saturation), every
// integer requantisation Loupe accepts (int8 to int8/uint8/int16/int32,
// uint8 to int8, int16 to int8/int16/int32, int32 to int8/int16; one
// multiplier for the input/output scale ratio in double, equal scales with
// zero points 128 apart, as the uint8 <-> int8 fast path takes them), and
// int8/int16/uint8 to float32 (the scale in double). Every int8/uint8 input
// value, drawn values for the wider types. The oracle's bytes were
// cross-checked offline against TFLM's own kernels compiled outside this
// repository (LOUPE_QUANTIZE_CASES_DUMP=FILE writes the cases).
#include <QtTest>

#include <bit>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include "test_group.h"
#include "tflm_oracle.h"
#include "unary_op_harness.h"

namespace quantize_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct TypeInfo {
  ir::DType dtype;
  const char* name;
  std::int64_t low, high;
};

const TypeInfo kFloat{ir::DType::Float32, "float32", 0, 0};
const TypeInfo kInt8{ir::DType::Int8, "int8", -128, 127};
const TypeInfo kUInt8{ir::DType::UInt8, "uint8", 0, 255};
const TypeInfo kInt16{ir::DType::Int16, "int16", -32768, 32767};
const TypeInfo kInt32{ir::DType::Int32, "int32", std::numeric_limits<std::int32_t>::min(),
                      std::numeric_limits<std::int32_t>::max()};

// QUANTIZE's pairs, then DEQUANTIZE's.
const std::pair<TypeInfo, TypeInfo> kPairs[] = {
    {kFloat, kInt8}, {kFloat, kInt16}, {kInt8, kInt8},  {kInt8, kUInt8},  {kInt8, kInt16},
    {kInt8, kInt32}, {kUInt8, kInt8},  {kInt16, kInt8}, {kInt16, kInt16}, {kInt16, kInt32},
    {kInt32, kInt8}, {kInt32, kInt16}, {kInt8, kFloat}, {kInt16, kFloat}, {kUInt8, kFloat}};

struct QuantizeCase {
  TypeInfo in = kFloat, out = kInt8;
  float inScale = 1, outScale = 1;
  std::int32_t inZero = 0, outZero = 0;
  std::vector<std::int64_t> input;  // integers, or float bit patterns
  bool dequantize() const { return out.dtype == ir::DType::Float32; }
};

float floatOf(std::int64_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
}

// The expected output: integers, or float bit patterns for DEQUANTIZE.
std::vector<std::int64_t> tfliteMicro(const QuantizeCase& c) {
  std::vector<std::int64_t> result;
  if (c.dequantize()) {
    // reference_ops::Dequantize: the scale widened to double.
    for (std::int64_t q : c.input) {
      const auto value =
          static_cast<float>(static_cast<double>(c.inScale) * static_cast<double>(q - c.inZero));
      result.push_back(std::bit_cast<std::uint32_t>(value));
    }
    return result;
  }
  if (c.in.dtype == ir::DType::Float32) {
    // AffineQuantize: the quotient in float, rounded half away from zero.
    for (std::int64_t bits : c.input) {
      const std::int64_t q =
          static_cast<std::int64_t>(std::round(floatOf(bits) / c.outScale)) + c.outZero;
      result.push_back(std::clamp(q, c.out.low, c.out.high));
    }
    return result;
  }
  std::int32_t multiplier;
  int shift;
  tflm::quantizeMultiplier(static_cast<double>(c.inScale) / static_cast<double>(c.outScale),
                           multiplier, shift);
  // Requantize (its int8 <-> uint8 XOR fast path gives the same bytes).
  for (std::int64_t x : c.input) {
    const std::int32_t centred = static_cast<std::int32_t>(x) - c.inZero;
    const std::int64_t q =
        std::int64_t{tflm::multiplyByQuantizedMultiplier(centred, multiplier, shift)} + c.outZero;
    result.push_back(std::clamp(q, c.out.low, c.out.high));
  }
  return result;
}

std::int32_t drawZero(std::mt19937& random, const TypeInfo& type) {
  if (type.dtype == ir::DType::Int8) return tflm::uniform(random, -128, 127);
  if (type.dtype == ir::DType::UInt8) return tflm::uniform(random, 0, 255);
  if (type.dtype == ir::DType::Int32) return tflm::uniform(random, -1000, 1000);
  return 0;  // int16: symmetric in TFLite
}

QuantizeCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  const auto& pair = kPairs[uniform(0, static_cast<int>(std::size(kPairs)) - 1)];
  QuantizeCase c;
  c.in = pair.first;
  c.out = pair.second;
  c.inScale = tflm::drawScale(random, -12, -2);
  if (c.in.dtype != ir::DType::Float32) c.inZero = drawZero(random, c.in);
  if (!c.dequantize()) {
    // Equal scales (and for int8 <-> uint8 zero points 128 apart), or a
    // ratio of up to 2^10 either way.
    const int kind = uniform(0, 3);
    c.outScale =
        kind == 0
            ? c.inScale
            : c.inScale * std::pow(2.0f, static_cast<float>(uniform(-10000, 10000)) / 1000.0f);
    c.outZero = drawZero(random, c.out);
    if (kind == 0 && c.in.dtype == ir::DType::Int8 && c.out.dtype == ir::DType::UInt8) {
      c.outZero = c.inZero + 128;
    }
    if (kind == 0 && c.in.dtype == ir::DType::UInt8 && c.out.dtype == ir::DType::Int8) {
      c.inZero = c.outZero + 128;
    }
    if (c.in.dtype == ir::DType::Float32 && uniform(0, 1)) {
      c.outScale = std::ldexp(1.0f, uniform(-10, -2));  // exact halves below
    }
  }
  if (c.in.dtype == ir::DType::Int8 || c.in.dtype == ir::DType::UInt8) {
    for (std::int64_t v = c.in.low; v <= c.in.high; ++v) c.input.push_back(v);
  } else if (c.in.dtype == ir::DType::Float32) {
    const float reach = c.outScale * static_cast<float>(c.out.high - c.out.low);
    for (int i = 0; i < 300; ++i) {
      float x;
      if (i % 3 == 0) {
        // A tie: an odd number of half steps from the zero point.
        x = (static_cast<float>(uniform(-600, 600)) + 0.5f) * c.outScale;
      } else {
        x = reach * static_cast<float>(uniform(-1000000, 1000000)) / 1000000.0f;
      }
      c.input.push_back(std::bit_cast<std::uint32_t>(x));
    }
  } else {
    const std::int64_t low = c.in.dtype == ir::DType::Int32 ? -(1 << 24) : c.in.low;
    const std::int64_t high = c.in.dtype == ir::DType::Int32 ? (1 << 24) : c.in.high;
    c.input = {low, high, 0, -1, 1};
    for (int i = 0; i < 300; ++i) {
      c.input.push_back(std::uniform_int_distribution<std::int64_t>(low, high)(random));
    }
  }
  return c;
}

template <typename T>
std::vector<T> typed(const std::vector<std::int64_t>& values) {
  std::vector<T> result;
  for (std::int64_t v : values) {
    if constexpr (std::is_same_v<T, float>) {
      result.push_back(floatOf(v));
    } else {
      result.push_back(static_cast<T>(v));
    }
  }
  return result;
}

template <typename In>
std::vector<std::int64_t> runWith(const test::UnaryOp& op, const QuantizeCase& c) {
  const auto input = typed<In>(c.input);
  std::vector<std::int64_t> result;
  auto take = [&result](const auto& values) {
    for (auto v : values) {
      if constexpr (std::is_same_v<std::decay_t<decltype(v)>, float>) {
        result.push_back(std::bit_cast<std::uint32_t>(v));
      } else {
        result.push_back(v);
      }
    }
  };
  switch (c.out.dtype) {
    case ir::DType::Int8:
      take(op.run<std::int8_t>(input));
      break;
    case ir::DType::UInt8:
      take(op.run<std::uint8_t>(input));
      break;
    case ir::DType::Int16:
      take(op.run<std::int16_t>(input));
      break;
    case ir::DType::Int32:
      take(op.run<std::int32_t>(input));
      break;
    default:
      take(op.run<float>(input));
  }
  return result;
}

std::vector<std::int64_t> runLoupe(const QuantizeCase& c) {
  test::UnaryOp op;
  op.type = c.dequantize() ? ir::OpType::Dequantize : ir::OpType::Quantize;
  op.inputType = c.in.dtype;
  op.outputType = c.out.dtype;
  if (c.in.dtype != ir::DType::Float32) op.inputQuant = test::perTensor(c.inScale, c.inZero);
  if (!c.dequantize()) op.outputQuant = test::perTensor(c.outScale, c.outZero);
  if (auto problem = op.problem()) throw std::runtime_error(*problem);
  switch (c.in.dtype) {
    case ir::DType::Float32:
      return runWith<float>(op, c);
    case ir::DType::Int8:
      return runWith<std::int8_t>(op, c);
    case ir::DType::UInt8:
      return runWith<std::uint8_t>(op, c);
    case ir::DType::Int16:
      return runWith<std::int16_t>(op, c);
    default:
      return runWith<std::int32_t>(op, c);
  }
}

}  // namespace

class QuantizeProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(30);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_QUANTIZE_CASES_DUMP")) dump.open(file);
    std::map<std::string, int> pairs;
    int equalScales = 0, clamped = 0;
    constexpr int kCases = 1500;
    for (int n = 0; n < kCases; ++n) {
      const QuantizeCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump.precision(9);
        dump << (c.dequantize() ? "dequantize " : "quantize ") << c.in.name << ' ' << c.out.name
             << ' ' << c.inScale << ' ' << c.inZero << ' ' << c.outScale << ' ' << c.outZero << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(
              expected, [&] { return runLoupe(c); }, [&](std::size_t i) { return c.input[i]; });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1 (%2 -> %3): %4")
                             .arg(n)
                             .arg(c.in.name)
                             .arg(c.out.name)
                             .arg(QString::fromStdString(wrong))));
      }
      ++pairs[std::string(c.in.name) + "->" + c.out.name];
      equalScales += !c.dequantize() && c.inScale == c.outScale;
      clamped += !c.dequantize() && (std::count(expected.begin(), expected.end(), c.out.low) +
                                         std::count(expected.begin(), expected.end(), c.out.high) >
                                     0);
    }
    for (const auto& [pair, count] : pairs) qInfo("%s: %d", pair.c_str(), count);
    qInfo("equal scales %d, saturated %d", equalScales, clamped);
    // The draw reaches the branches it is meant to: every pair, equal
    // scales, saturation.
    QCOMPARE(pairs.size(), std::size(kPairs));
    for (const auto& [pair, count] : pairs) QVERIFY2(count > 25, pair.c_str());
    QVERIFY(equalScales > 100 && clamped > 200);
  }
};

LOUPE_TEST_APPLESS_MAIN(QuantizeProperty)

}  // namespace quantize_property_test

#include "quantize_property_test.moc"
