// The float32 element-wise math operators as TFLite Micro runs them: SQRT,
// EXP, LOG, SIN, COS, FLOOR and CEIL take sqrtf, expf, logf, sinf, cosf,
// floorf and ceilf of each element (expf, logf, sinf and cosf Loupe's own,
// loupe/loupe_libm.h, which give glibc's bits on every board); SQUARE is
// x * x; ROUND is TFLite's RoundToNearest, ties to even built from floorf:
// the floor, plus one unless the fraction is below 1/2, or exactly 1/2 with
// an even floor.
// That formula, not rintf, decides the sign of zero: -0.5 and -0.3 round to
// +0.0 (-1 + 1), only -0.0 itself stays -0.0; infinities and NaN come
// through (their fraction is NaN, so they take floor + 1).
//
// The reference and the generated C call the same wrappers
// (loupe/float_math.h; loupe_expf of loupe/fixed_point_math.h), so both take
// each value from the same function. TFLite Micro runs these operators on
// float32 only; the int8/int16 versions TFLite has for EXP, LOG and SQRT
// (version 2) are refused by the check.
#include <cstdint>

#include "loupe/fixed_point_math.h"
#include "loupe/float_math.h"
#include "lowering/elementwise_unary.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

enum class MathFunction { Sqrt, Exp, Log, Sin, Cos, Floor, Ceil, Round, Square };

// TFLite's RoundToNearest. The int conversion is only reached for a
// fraction of exactly 1/2, where |floor| < 2^23 fits an int.
float roundHalfToEven(float x) {
  const float below = loupe_floorf(x);
  const float fraction = x - below;
  if (fraction < 0.5f || (fraction == 0.5f && static_cast<std::int32_t>(below) % 2 == 0)) {
    return below;
  }
  return below + 1.0f;
}

float valueOf(MathFunction function, float x) {
  switch (function) {
    case MathFunction::Sqrt:
      return loupe_sqrtf(x);
    case MathFunction::Exp:
      return loupe_expf(x);
    case MathFunction::Log:
      return loupe_logf(x);
    case MathFunction::Sin:
      return loupe_sinf(x);
    case MathFunction::Cos:
      return loupe_cosf(x);
    case MathFunction::Floor:
      return loupe_floorf(x);
    case MathFunction::Ceil:
      return loupe_ceilf(x);
    case MathFunction::Round:
      return roundHalfToEven(x);
    case MathFunction::Square:
      return x * x;
  }
  return x;
}

// roundHalfToEven in TIR. C's && stops before the int conversion as the
// reference's does; floorf is a pure builtin the C compiler computes once.
tir::Expr roundHalfToEvenOf(const tir::Expr& x) {
  const tir::Expr below = tir::callIntrinsic("loupe.floorf", tir::ScalarType::Float32, {x});
  const tir::Expr fraction = x - below;
  const tir::Expr evenFloor =
      tir::eq(tir::cast(tir::ScalarType::Int32, below) % tir::intImm(2), tir::intImm(0));
  const tir::Expr keepFloor =
      tir::logicalOr(fraction < tir::floatImm(0.5),
                     tir::logicalAnd(tir::eq(fraction, tir::floatImm(0.5)), evenFloor));
  return tir::select(keepFloor, below, below + tir::floatImm(1.0));
}

lowering::UnaryElementFunction elementFunctionOf(MathFunction function) {
  switch (function) {
    case MathFunction::Sqrt:
      return lowering::helperCall("loupe.sqrtf", loupe_sqrtf);
    case MathFunction::Exp:
      return lowering::helperCall("loupe.expf", loupe_expf);
    case MathFunction::Log:
      return lowering::helperCall("loupe.logf", loupe_logf);
    case MathFunction::Sin:
      return lowering::helperCall("loupe.sinf", loupe_sinf);
    case MathFunction::Cos:
      return lowering::helperCall("loupe.cosf", loupe_cosf);
    case MathFunction::Floor:
      return lowering::helperCall("loupe.floorf", loupe_floorf);
    case MathFunction::Ceil:
      return lowering::helperCall("loupe.ceilf", loupe_ceilf);
    case MathFunction::Round:
      return {.atCompileTime = {}, .perElement = roundHalfToEvenOf};
    case MathFunction::Square:
      return {.atCompileTime = {}, .perElement = [](const tir::Expr& x) { return x * x; }};
  }
  return {};
}

std::optional<std::string> checkFloatMath(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  if (input->dtype != ir::DType::Float32) {
    return "input dtype " + reference::describeDtype(input->dtype) +
           " is not supported (expected float32, as TFLite Micro)";
  }
  const ir::Tensor& output = graph.output(op, 0);
  if (output.dtype != input->dtype || output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's type and shape";
  }
  return std::nullopt;
}

template <MathFunction kFunction>
void evalFloatMath(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const float* in = store.data<float>(op.inputs[0]);
  float* out = store.mutableData<float>(op.outputs[0]);
  const std::int64_t count = graph.tensor(op.inputs[0]).elementCount();
  for (std::int64_t i = 0; i < count; ++i) out[i] = valueOf(kFunction, in[i]);
}

template <MathFunction kFunction>
tir::PrimFunc lowerFloatMath(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  return lowering::lowerElementwiseUnary(graph, op, functionName, elementFunctionOf(kFunction));
}

template <MathFunction kFunction>
constexpr reference::Kernel kernelOf(ir::OpType type) {
  return reference::Kernel{type, checkFloatMath, evalFloatMath<kFunction>};
}

const reference::Kernel kSqrtKernel = kernelOf<MathFunction::Sqrt>(ir::OpType::Sqrt);
const reference::Kernel kExpKernel = kernelOf<MathFunction::Exp>(ir::OpType::Exp);
const reference::Kernel kLogKernel = kernelOf<MathFunction::Log>(ir::OpType::Log);
const reference::Kernel kSinKernel = kernelOf<MathFunction::Sin>(ir::OpType::Sin);
const reference::Kernel kCosKernel = kernelOf<MathFunction::Cos>(ir::OpType::Cos);
const reference::Kernel kFloorKernel = kernelOf<MathFunction::Floor>(ir::OpType::Floor);
const reference::Kernel kCeilKernel = kernelOf<MathFunction::Ceil>(ir::OpType::Ceil);
const reference::Kernel kRoundKernel = kernelOf<MathFunction::Round>(ir::OpType::Round);
const reference::Kernel kSquareKernel = kernelOf<MathFunction::Square>(ir::OpType::Square);

}  // namespace

extern const OperatorDefinition kSqrtDefinition{
    .type = ir::OpType::Sqrt,
    .dtypes = "float32",
    .import = {.maxVersion = 2},
    .shape = sameAsInput,
    .kernel = &kSqrtKernel,
    .lower = lowerFloatMath<MathFunction::Sqrt>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kExpDefinition{
    .type = ir::OpType::Exp,
    .dtypes = "float32",
    .import = {.optionsType = optionsTypeOf<tflite::ExpOptions>(), .maxVersion = 2},
    .shape = sameAsInput,
    .kernel = &kExpKernel,
    .lower = lowerFloatMath<MathFunction::Exp>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kLogDefinition{
    .type = ir::OpType::Log,
    .dtypes = "float32",
    .import = {.maxVersion = 2},
    .shape = sameAsInput,
    .kernel = &kLogKernel,
    .lower = lowerFloatMath<MathFunction::Log>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kSinDefinition{
    .type = ir::OpType::Sin,
    .dtypes = "float32",
    .import = {.maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kSinKernel,
    .lower = lowerFloatMath<MathFunction::Sin>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kCosDefinition{
    .type = ir::OpType::Cos,
    .dtypes = "float32",
    .import = {.maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kCosKernel,
    .lower = lowerFloatMath<MathFunction::Cos>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kFloorDefinition{
    .type = ir::OpType::Floor,
    .dtypes = "float32",
    .import = {.maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kFloorKernel,
    .lower = lowerFloatMath<MathFunction::Floor>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kCeilDefinition{
    .type = ir::OpType::Ceil,
    .dtypes = "float32",
    .import = {.maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kCeilKernel,
    .lower = lowerFloatMath<MathFunction::Ceil>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kRoundDefinition{
    .type = ir::OpType::Round,
    .dtypes = "float32",
    .import = {.maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kRoundKernel,
    .lower = lowerFloatMath<MathFunction::Round>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kSquareDefinition{
    .type = ir::OpType::Square,
    .dtypes = "float32",
    .import = {.optionsType = optionsTypeOf<tflite::SquareOptions>(), .maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kSquareKernel,
    .lower = lowerFloatMath<MathFunction::Square>,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
