// What the one-input, one-output operators (LOGISTIC, TANH, RELU, RELU6,
// LEAKY_RELU, HARD_SWISH, QUANTIZE, DEQUANTIZE) lower to: one flat loop over
// the elements, each output the value of a helper of loupe/elementwise_unary.h
// (or fixed_point_math.h) at the input element, the helper the reference
// kernel calls. An 8-bit input has only 256 values, so there the helper runs
// here, at compile time, for each of them, and the loop reads the result from
// a constant table: one load per element, bit-exact by construction. Other
// inputs call the helper per element.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "lowering/lowering_support.h"
#include "reference/quantized_params.h"
#include "tir/expr.h"

namespace loupe::lowering {

// How one output element follows from one input element.
struct UnaryElementFunction {
  // The output for input value x, evaluated now (for 8-bit inputs' tables).
  // A double holds every int32 and float result exactly.
  std::function<double(std::int32_t)> atCompileTime;
  // The output for input element x in TIR; empty for helpers that only serve
  // 8-bit inputs and so have no intrinsic.
  std::function<tir::Expr(const tir::Expr&)> perElement;
};

// The flat loop over the operator's elements applying `element`.
tir::PrimFunc lowerElementwiseUnary(const ir::Graph& graph, const ir::Operator& op,
                                    const std::string& functionName,
                                    const UnaryElementFunction& element);

// [min, max] of an integer tensor's element type, the clamp bounds of the
// helpers; fail()s for other types.
reference::IntRange integerTypeRange(const ir::Operator& op, std::string_view role,
                                     const ir::Tensor& tensor);

// The error for an operand type the operator's rule does not handle (the
// reference kernel's check refuses those first).
[[noreturn]] void failTensorType(const ir::Operator& op, std::string_view role,
                                 const ir::Tensor& tensor);

// A float the generated C can write as a literal; fail()s otherwise.
float finiteParameter(const ir::Operator& op, std::string_view name, float value);

namespace detail {

template <typename T>
constexpr tir::ScalarType scalarTypeOf() {
  if constexpr (std::is_floating_point_v<T>) {
    return tir::ScalarType::Float32;
  } else if constexpr (sizeof(T) == 1) {
    return std::is_signed_v<T> ? tir::ScalarType::Int8 : tir::ScalarType::UInt8;
  } else if constexpr (sizeof(T) == 2) {
    return tir::ScalarType::Int16;
  } else {
    static_assert(sizeof(T) == 4, "helpers take 8- to 32-bit scalars");
    return tir::ScalarType::Int32;
  }
}

template <typename T>
tir::Expr immediate(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    // finiteParameter() guards what reaches here: C has no literal for inf or NaN.
    if (!std::isfinite(value)) throw std::logic_error("non-finite float immediate");
    return tir::floatImm(value);
  } else {
    return tir::intImm(value);
  }
}

// Throws std::logic_error unless the intrinsic table has `name` with this
// result type and arity: a call the C printer could not print is a bug here.
void checkIntrinsic(std::string_view name, tir::ScalarType result, int arity);

}  // namespace detail

// helper(x, args...) as the element function: intrinsic `intrinsic` (the
// same C function) called per element in TIR, and `helper` itself at compile
// time. The arguments are converted to the helper's parameter types once, so
// the TIR call and the compile-time call see the same values.
template <typename R, typename X, typename... A>
UnaryElementFunction helperCall(std::string_view intrinsic, R (*helper)(X, A...),
                                std::type_identity_t<A>... args) {
  detail::checkIntrinsic(intrinsic, detail::scalarTypeOf<R>(), 1 + static_cast<int>(sizeof...(A)));
  UnaryElementFunction f;
  f.atCompileTime = [=](std::int32_t x) {
    return static_cast<double>(helper(static_cast<X>(x), args...));
  };
  f.perElement = [=, name = std::string(intrinsic)](const tir::Expr& x) {
    return tir::callIntrinsic(
        name, detail::scalarTypeOf<R>(),
        {tir::cast(detail::scalarTypeOf<X>(), x), detail::immediate(args)...});
  };
  return f;
}

// helper(x, args...) evaluated at compile time only: for the helpers of
// 8-bit inputs, which always read a table.
template <typename R, typename X, typename... A>
UnaryElementFunction compileTimeCall(R (*helper)(X, A...), std::type_identity_t<A>... args) {
  UnaryElementFunction f;
  f.atCompileTime = [=](std::int32_t x) {
    return static_cast<double>(helper(static_cast<X>(x), args...));
  };
  return f;
}

}  // namespace loupe::lowering
