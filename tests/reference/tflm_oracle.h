// TFLite Micro's fixed-point steps and parameter derivations, written from
// its sources (commit 90b983c: kernels/internal/quantization_util.cc,
// common.cc, kernel_util.cc, padding.h) for the property tests' oracles,
// independently of Loupe's helpers (nothing here includes runtime_core or
// compiler_core), plus the dump writer and the comparison with Loupe that
// the tests share.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ir/attributes.h"
#include "ir/graph.h"

namespace loupe::test::tflm {

// QuantizeMultiplier: frexp, round to Q31, the 2^31 carry, and shifts below
// -31 as zero.
inline void quantizeMultiplier(double real, std::int32_t& multiplier, int& shift) {
  if (real == 0) {
    multiplier = 0;
    shift = 0;
    return;
  }
  const double fraction = std::frexp(real, &shift);
  auto fixed = static_cast<std::int64_t>(std::round(fraction * 2147483648.0));
  if (fixed == (std::int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    fixed = 0;
  }
  multiplier = static_cast<std::int32_t>(fixed);
}

// gemmlowp's SaturatingRoundingDoublingHighMul.
inline std::int32_t doublingHighMul(std::int32_t a, std::int32_t b) {
  if (a == std::numeric_limits<std::int32_t>::min() && b == a) {
    return std::numeric_limits<std::int32_t>::max();
  }
  const std::int64_t product = std::int64_t{a} * b;
  const std::int64_t nudge = product >= 0 ? (std::int64_t{1} << 30) : 1 - (std::int64_t{1} << 30);
  return static_cast<std::int32_t>((product + nudge) / (std::int64_t{1} << 31));
}

// gemmlowp's RoundingDivideByPOT: round half away from zero.
inline std::int32_t roundingDivideByPot(std::int32_t x, int exponent) {
  if (exponent == 0) return x;
  const std::int32_t mask = static_cast<std::int32_t>((std::int64_t{1} << exponent) - 1);
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

// MultiplyByQuantizedMultiplier(int32_t, ...), TFLM's default double
// rounding: left shift, doubling high multiply, rounding right shift.
inline std::int32_t multiplyByQuantizedMultiplier(std::int32_t x, std::int32_t multiplier,
                                                  int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const auto shifted = static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << left);
  return roundingDivideByPot(doublingHighMul(shifted, multiplier), right);
}

// MultiplyByQuantizedMultiplier(int64_t, ...): the multiplier reduced to
// Q0.15 (rounded, capped at 0x7FFF), one rounding shift by 15 - shift.
inline std::int32_t multiplyByQuantizedMultiplier64(std::int64_t x, std::int32_t multiplier,
                                                    int shift) {
  const std::int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
  const int total = 15 - shift;
  const std::int64_t result = (x * reduced + (std::int64_t{1} << (total - 1))) >> total;
  return static_cast<std::int32_t>(result);
}

// --- gemmlowp's FixedPoint<int32_t, IntegerBits> on raw values -------------
// (fixedpoint.h, as TFLM's LOGISTIC, TANH and SOFTMAX use it): a product of
// formats with m and n integer bits has m + n; sums wrap as int32.

inline std::int32_t wrappingAdd(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
inline std::int32_t wrappingSub(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}

// SaturatingRoundingMultiplyByPOT<exponent>: a saturating left shift, or a
// rounding right shift.
inline std::int32_t saturatingRoundingMultiplyByPot(std::int32_t x, int exponent) {
  if (exponent < 0) return roundingDivideByPot(x, -exponent);
  if (exponent == 0) return x;
  const std::int32_t threshold =
      static_cast<std::int32_t>((std::int64_t{1} << (31 - exponent)) - 1);
  if (x > threshold) return std::numeric_limits<std::int32_t>::max();
  if (x < -threshold) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << exponent);
}

// Rescale<to>(x) of a value with `from` integer bits.
inline std::int32_t rescale(std::int32_t x, int from, int to) {
  return saturatingRoundingMultiplyByPot(x, from - to);
}

// exp(a) for a in [-1/4, 0), Q0.31: a Taylor expansion around -1/8.
inline std::int32_t expOnIntervalNegativeQuarterTo0(std::int32_t a) {
  const std::int32_t expMinusEighth = 1895147668, oneThird = 715827883;
  const std::int32_t x = wrappingAdd(a, 1 << 28);
  const std::int32_t x2 = doublingHighMul(x, x);
  const std::int32_t x3 = doublingHighMul(x2, x);
  const std::int32_t x4 = doublingHighMul(x2, x2);
  const std::int32_t x4Over4 = saturatingRoundingMultiplyByPot(x4, -2);
  const std::int32_t polynomial = saturatingRoundingMultiplyByPot(
      wrappingAdd(doublingHighMul(wrappingAdd(x4Over4, x3), oneThird), x2), -1);
  return wrappingAdd(expMinusEighth, doublingHighMul(expMinusEighth, wrappingAdd(x, polynomial)));
}

// exp(a) for a <= 0 with `integerBits`, Q0.31: the remainder below 1/4 by
// the polynomial, then one factor exp(-2^k) per set bit of the rest.
inline std::int32_t expOnNegativeValues(std::int32_t a, int integerBits) {
  const int fractionalBits = 31 - integerBits;
  const std::int32_t quarter = std::int32_t{1} << (fractionalBits - 2);
  const std::int32_t aModQuarterMinusQuarter = wrappingSub(a & (quarter - 1), quarter);
  std::int32_t result =
      expOnIntervalNegativeQuarterTo0(rescale(aModQuarterMinusQuarter, integerBits, 0));
  const std::int32_t remainder = wrappingSub(aModQuarterMinusQuarter, a);
  const std::pair<int, std::int32_t> factors[] = {
      {-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308},
      {2, 39332535},    {3, 720401},      {4, 242}};
  for (const auto& [exponent, factor] : factors) {
    if (integerBits > exponent && (remainder & (std::int32_t{1} << (fractionalBits + exponent)))) {
      result = doublingHighMul(result, factor);
    }
  }
  if (integerBits > 5 && a < -(std::int32_t{1} << (36 - integerBits))) result = 0;  // below -32
  if (a == 0) result = std::numeric_limits<std::int32_t>::max();
  return result;
}

// The Newton-Raphson iteration for 1 / (1 + a), a in (0, 1) Q0.31; the
// result x is Q2.29 and approximates 2 / (1 + a) (three steps from 48/17 -
// 32/17 d).
inline std::int32_t newtonTwoOverOnePlus(std::int32_t a) {
  const std::int64_t sum = std::int64_t{a} + std::numeric_limits<std::int32_t>::max();
  const auto halfDenominator = static_cast<std::int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  std::int32_t x = wrappingAdd(1515870810, doublingHighMul(halfDenominator, -1010580540));
  for (int i = 0; i < 3; ++i) {
    const std::int32_t oneMinus = wrappingSub(1 << 29, doublingHighMul(halfDenominator, x));
    x = wrappingAdd(x, rescale(doublingHighMul(x, oneMinus), 4, 2));
  }
  return x;
}

// 1 / (1 + a) for a in (0, 1), Q0.31.
inline std::int32_t oneOverOnePlusX(std::int32_t a) {
  return rescale(newtonTwoOverOnePlus(a), 1, 0);  // x / 2, read as Q1.30
}

// (1 - a) / (1 + a) for a in (0, 1), Q0.31.
inline std::int32_t oneMinusXOverOnePlusX(std::int32_t a) {
  return rescale(wrappingSub(newtonTwoOverOnePlus(a), 1 << 29), 2, 0);
}

// gemmlowp::logistic of a value with `integerBits`, Q0.31.
inline std::int32_t logistic(std::int32_t a, int integerBits) {
  if (a == 0) return 1 << 30;
  const std::int32_t magnitude = a > 0 ? a : wrappingSub(0, a);
  const std::int32_t positive =
      oneOverOnePlusX(expOnNegativeValues(wrappingSub(0, magnitude), integerBits));
  return a > 0 ? positive : wrappingSub(std::numeric_limits<std::int32_t>::max(), positive);
}

// gemmlowp::tanh of a value with `integerBits`, Q0.31: -tanh(n) for
// n = -|a| from exp(2n) (the same raw value read with one more integer bit).
inline std::int32_t tanh(std::int32_t a, int integerBits) {
  if (a == 0) return 0;
  const std::int32_t n = a < 0 ? a : wrappingSub(0, a);
  const std::int32_t t = oneMinusXOverOnePlusX(expOnNegativeValues(n, integerBits + 1));
  return a < 0 ? wrappingSub(0, t) : t;
}

// The TFLite fused-activation code (NONE 0, RELU 1, RELU_N1_TO_1 2, RELU6 3).
inline int activationCode(ir::Activation activation) {
  switch (activation) {
    case ir::Activation::Relu:
      return 1;
    case ir::Activation::ReluN1To1:
      return 2;
    case ir::Activation::Relu6:
      return 3;
    default:
      return 0;
  }
}

// CalculateActivationRangeQuantized: the bounds quantised in float (round
// half away from zero), clipped to [low, high].
inline std::pair<std::int32_t, std::int32_t> activationRange(ir::Activation activation, float scale,
                                                             std::int32_t zero, std::int32_t low,
                                                             std::int32_t high) {
  auto quantize = [&](float f) { return zero + static_cast<std::int32_t>(std::round(f / scale)); };
  switch (activation) {
    case ir::Activation::Relu:
      return {std::max(low, quantize(0.0f)), high};
    case ir::Activation::Relu6:
      return {std::max(low, quantize(0.0f)), std::min(high, quantize(6.0f))};
    case ir::Activation::ReluN1To1:
      return {std::max(low, quantize(-1.0f)), std::min(high, quantize(1.0f))};
    default:
      return {low, high};
  }
}

// ComputeOutSize (GetWindowedOutputSize): 0 when no window fits.
inline int windowOutputSize(bool same, int image, int filter, int stride, int dilation) {
  const int effective = (filter - 1) * dilation + 1;
  const int value = same ? (image + stride - 1) / stride : (image + stride - effective) / stride;
  return std::max(value, 0);
}

// ComputePaddingWithOffset's padding before the image (the kernels use
// only this; the odd pixel goes after).
inline int windowPadding(int stride, int dilation, int image, int filter, int out) {
  const int effective = (filter - 1) * dilation + 1;
  const int total = std::max((out - 1) * stride + effective - image, 0);
  return total / 2;
}

// A uniform integer in [lo, hi].
inline int uniform(std::mt19937& random, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(random);
}

// A scale 2^exponent times a mantissa in [1, 2) drawn in steps of 1/1000.
inline float drawScale(std::mt19937& random, int minExponent, int maxExponent) {
  return std::ldexp(1.0f + static_cast<float>(uniform(random, 0, 999)) / 1000.0f,
                    uniform(random, minExponent, maxExponent));
}

// Space-separated values for the dump files (floats with 9 digits, exact).
template <typename T>
void dumpValues(std::ostream& out, const std::vector<T>& values) {
  out << values.size();
  for (const T& v : values) out << ' ' << +v;
}

// --- Comparing Loupe with the oracle -----------------------------------------

namespace detail {
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

// Where `actual` first departs from `expected` (which differ): " at i: a,
// TFLite Micro e", or " in size: n, TFLite Micro m"; within nested vectors
// (one output per run, say) " in [r]" first. `inputAt(i)`, if given, names
// element i by the input value it was computed from (" at input x: ...").
template <typename T, typename InputAt>
std::string firstDifference(const std::vector<T>& actual, const std::vector<T>& expected,
                            const InputAt& inputAt) {
  std::ostringstream out;
  for (std::size_t i = 0; i < actual.size() && i < expected.size(); ++i) {
    if (actual[i] == expected[i]) continue;
    if constexpr (IsVector<T>::value) {
      out << " in [" << i << ']' << firstDifference(actual[i], expected[i], nullptr);
    } else {
      out << " at ";
      if constexpr (std::is_null_pointer_v<InputAt>) {
        out << i;
      } else {
        out << "input " << +inputAt(i);
      }
      out << ": " << +actual[i] << ", TFLite Micro " << +expected[i];
    }
    return out.str();
  }
  out << " in size: " << actual.size() << ", TFLite Micro " << expected.size();
  return out.str();
}
}  // namespace detail

// What is wrong with Loupe's output for a case: "" when `runLoupe()` returns
// `expected`, else what it threw (on one line) or where it first differs
// ("differs at i: a, TFLite Micro e"). For element-wise ops `inputAt(i)`
// gives the input value of output element i, and the message names that
// instead ("differs at input x: ...").
template <typename T, typename RunLoupe, typename InputAt = std::nullptr_t>
std::string mismatch(const std::vector<T>& expected, RunLoupe&& runLoupe,
                     const InputAt& inputAt = nullptr) {
  std::vector<T> actual;
  try {
    actual = runLoupe();
  } catch (const std::exception& error) {
    std::string what = error.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    return "Loupe threw: " + what;
  }
  if (actual == expected) return {};
  return "differs" + detail::firstDifference(actual, expected, inputAt);
}

}  // namespace loupe::test::tflm
