// The two arithmetics of gemmlowp-style fixed-point algorithms that depend on
// run-time data (LOG_SOFTMAX's log of a row's sum, L2_NORMALIZATION's
// inverse square root). Such an algorithm is written once, as a template
// over an arithmetic: EvaluatingArithmetic computes each step now with the
// loupe_ C helpers (the reference kernel); TirArithmetic emits each step as
// TIR built from the same helpers' intrinsics, naming intermediate values
// with Lets (the lowering). Both give the same bits because both end in the
// same C functions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "loupe/fixed_point_math.h"
#include "tir/expr.h"
#include "tir/stmt.h"

namespace loupe::ops {

struct EvaluatingArithmetic {
  using Value = std::int32_t;
  using Condition = bool;

  Value bind(const char*, Value v) const { return v; }
  Condition bind(const char*, Condition c) const { return c; }
  Value product(Value a, Value b) const {  // gemmlowp's FixedPoint *
    return loupe_saturating_rounding_doubling_high_mul(a, b);
  }
  Value add(Value a, Value b) const { return loupe_wrapping_add_i32(a, b); }
  Value subtract(Value a, Value b) const { return loupe_wrapping_sub_i32(a, b); }
  Value saturatingAdd(Value a, Value b) const {
    return static_cast<Value>(std::clamp<std::int64_t>(std::int64_t{a} + b, INT32_MIN, INT32_MAX));
  }
  Value saturatingSubtract(Value a, Value b) const {
    return static_cast<Value>(std::clamp<std::int64_t>(std::int64_t{a} - b, INT32_MIN, INT32_MAX));
  }
  // x * 2^exponent: saturating for a positive exponent, rounding for a
  // negative one (gemmlowp's SaturatingRoundingMultiplyByPOT).
  Value timesPowerOfTwo(Value x, Value exponent) const {
    return loupe_saturating_rounding_multiply_by_pot(x, exponent);
  }
  // x * 2^exponent modulo 2^32, exponent in [0, 31].
  Value wrappingShiftLeft(Value x, Value exponent) const {
    return static_cast<Value>(static_cast<std::uint32_t>(x) << exponent);
  }
  Value roundingDivideByPowerOfTwo(Value x, int exponent) const {
    return loupe_rounding_divide_by_pot(x, exponent);
  }
  Value roundingHalfSum(Value a, Value b) const { return loupe_rounding_half_sum(a, b); }
  Value oneOverOnePlusX(Value x) const { return loupe_one_over_one_plus_x_for_x_in_0_1(x); }
  Value countLeadingZeros(Value x) const {
    return loupe_count_leading_zeros_u32(static_cast<std::uint32_t>(x));
  }
  Value select(Condition c, Value a, Value b) const { return c ? a : b; }
  Value min(Value a, Value b) const { return std::min(a, b); }
  Value max(Value a, Value b) const { return std::max(a, b); }
};

// wrap() binds the Lets around the statement that uses the values.
class TirArithmetic {
 public:
  using Value = tir::Expr;
  using Condition = tir::Expr;

  Value bind(const std::string& name, const Value& value) {
    if (value->kind == tir::ExprKind::IntImm || value->kind == tir::ExprKind::VarRef) return value;
    const tir::Var var = tir::makeVar(name + "_" + std::to_string(lets_.size()), value.type());
    lets_.emplace_back(var, value);
    return tir::refVar(var);
  }
  tir::Stmt wrap(tir::Stmt body) const {
    for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
      body = tir::let(it->first, it->second, body);
    }
    return body;
  }

  Value product(const Value& a, const Value& b) {
    if (tir::isIntImm(a) && tir::isIntImm(b)) {  // the same helper, now
      return tir::intImm(loupe_saturating_rounding_doubling_high_mul(
          static_cast<std::int32_t>(a->intValue), static_cast<std::int32_t>(b->intValue)));
    }
    return call("loupe.multiply_by_quantized_multiplier_greater_than_one", {a, b, tir::intImm(0)});
  }
  Value add(const Value& a, const Value& b) { return call("loupe.wrapping_add_i32", {a, b}); }
  Value subtract(const Value& a, const Value& b) { return add(a, negated(b)); }
  Value saturatingAdd(const Value& a, const Value& b) { return saturated(wide(a) + wide(b)); }
  Value saturatingSubtract(const Value& a, const Value& b) { return saturated(wide(a) - wide(b)); }
  Value timesPowerOfTwo(const Value& x, const Value& exponent) {
    if (tir::isIntImm(exponent)) return timesPowerOfTwo(x, static_cast<int>(exponent->intValue));
    const Value e = bind("exponent", exponent);
    const Value v = bind("value", x);
    const Value threshold = (tir::intImm(1) << (tir::intImm(31) - e)) - tir::intImm(1);
    const Value up = tir::select(
        v > threshold, tir::intImm(INT32_MAX),
        tir::select(v < tir::intImm(0) - threshold, tir::intImm(INT32_MIN), wrapped(v, e)));
    return tir::select(
        tir::eq(e, tir::intImm(0)), v,
        tir::select(e < tir::intImm(0), roundingDivideByPowerOfTwo(v, tir::intImm(0) - e), up));
  }
  Value timesPowerOfTwo(const Value& x, int exponent) {
    if (tir::isIntImm(x)) {  // the same helper, now
      return tir::intImm(loupe_saturating_rounding_multiply_by_pot(
          static_cast<std::int32_t>(x->intValue), exponent));
    }
    if (exponent == 0) return x;
    if (exponent < 0) return roundingDivideByPowerOfTwo(x, tir::intImm(-exponent));
    const Value v = bind("value", x);
    const auto threshold = static_cast<std::int32_t>((std::int64_t{1} << (31 - exponent)) - 1);
    return tir::select(v > tir::intImm(threshold), tir::intImm(INT32_MAX),
                       tir::select(v < tir::intImm(-threshold), tir::intImm(INT32_MIN),
                                   wrapped(v, tir::intImm(exponent))));
  }
  Value wrappingShiftLeft(const Value& x, const Value& exponent) { return wrapped(x, exponent); }
  Value roundingDivideByPowerOfTwo(const Value& x, const Value& exponent) {
    return call("loupe.rounding_divide_by_pot", {x, exponent});
  }
  Value roundingDivideByPowerOfTwo(const Value& x, int exponent) {
    return roundingDivideByPowerOfTwo(x, tir::intImm(exponent));
  }
  Value roundingHalfSum(const Value& a, const Value& b) {
    const Value sum = bind("sum", wide(a) + wide(b));
    const Value sign = tir::select(sum >= tir::intImm(0, tir::ScalarType::Int64),
                                   tir::intImm(1, tir::ScalarType::Int64),
                                   tir::intImm(-1, tir::ScalarType::Int64));
    return tir::cast(tir::ScalarType::Int32, (sum + sign) / tir::intImm(2, tir::ScalarType::Int64));
  }
  // gemmlowp's Newton-Raphson division, as loupe_one_over_one_plus_x_for_x_in_0_1.
  Value oneOverOnePlusX(const Value& a) {
    const Value halfDenominator = bind("half_denominator", roundingHalfSum(a, INT32_MAX));
    Value x = bind("x", add(1515870810, product(halfDenominator, -1010580540)));  // Q2.29
    for (int i = 0; i < 3; ++i) {
      const Value oneMinusHalfDenominatorTimesX =
          bind("residual", subtract(1 << 29, product(halfDenominator, x)));
      x = bind("x", add(x, timesPowerOfTwo(product(x, oneMinusHalfDenominatorTimesX), 2)));
    }
    return timesPowerOfTwo(x, 1);
  }
  Value countLeadingZeros(const Value& x) { return call("loupe.count_leading_zeros", {x}); }
  Value select(const Condition& c, const Value& a, const Value& b) { return tir::select(c, a, b); }
  Value min(const Value& a, const Value& b) { return tir::minExpr(a, b); }
  Value max(const Value& a, const Value& b) { return tir::maxExpr(a, b); }

 private:
  static Value call(const char* name, std::vector<Value> args) {
    return tir::callIntrinsic(name, tir::ScalarType::Int32, std::move(args));
  }
  static Value wide(const Value& v) { return tir::cast(tir::ScalarType::Int64, v); }
  Value saturated(const Value& wideValue) {
    const Value v = bind("wide", wideValue);
    return tir::cast(tir::ScalarType::Int32,
                     tir::maxExpr(tir::minExpr(v, tir::intImm(INT32_MAX, tir::ScalarType::Int64)),
                                  tir::intImm(INT32_MIN, tir::ScalarType::Int64)));
  }
  // -v wrapping (INT32_MIN stays).
  Value negated(const Value& v) {
    if (tir::isIntImm(v) && v->intValue != INT32_MIN) return tir::intImm(-v->intValue);
    const Value b = bind("value", v);
    return tir::select(tir::eq(b, tir::intImm(INT32_MIN)), b, tir::intImm(0) - b);
  }
  // v * 2^e modulo 2^32 for e in [0, 31], in 64 bits (C leaves signed
  // overflow undefined; the conversion back wraps).
  static Value wrapped(const Value& v, const Value& e) {
    return tir::cast(tir::ScalarType::Int32,
                     wide(v) * (tir::intImm(1, tir::ScalarType::Int64) << wide(e)));
  }

  std::vector<std::pair<tir::Var, tir::Expr>> lets_;
};

}  // namespace loupe::ops
