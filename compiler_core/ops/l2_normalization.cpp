// L2_NORMALIZATION: x / sqrt(sum of x^2) along the last dimension, as
// TFLite Micro computes it (at most four dimensions; its kernels take no
// fused activation, so only NONE is accepted). float32: the sum of squares
// in float in order, sqrtf, at least 1e-6, then one division per element.
// int8 (reference_integer_ops::L2Normalization): the int32 sum of
// (x - input zero point)^2 gives an inverse square root as a multiplier and
// shift (TFLite's GetInvSqrtQuantizedMultiplierExp, a Newton-Raphson
// iteration in Q3.28), each x - zero point is multiplied by it and scaled to
// 1/128 units, clamped to int8. TFLM does not look at the output's
// quantisation: the result is on scale 1/128, zero point 0, whatever the
// model says.
//
// The inverse square root depends on run-time data, so the generated C
// computes it too: inverseSqrt below is written once over an arithmetic that
// either evaluates (the reference kernel, with the loupe_ C helpers) or emits
// TIR Lets built from the fixed-point intrinsics (the lowering). A sum past
// 2^31 (rows of more than 33025 elements far from the zero point) is
// undefined in TFLM; where it wraps negative, as it does on its targets,
// TFLM answers as for a sum of at most 1, and so does Loupe.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "loupe/fixed_point_math.h"
#include "loupe/float_math.h"
#include "lowering/lowering_support.h"
#include "ops/fixed_point_arithmetic.h"
#include "ops/last_axis_rows.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"
#include "reference/unary_kernel_support.h"

namespace loupe::ops {

namespace {

using tir::Expr;

constexpr float kEpsilon = 1e-6f;
// Outputs are x / norm in units of 1/128.
constexpr int kOutputShift = 7;
// Q3.28 constants: 1.5; and sqrt(2) / 2 in Q0.31.
constexpr std::int32_t kThreeHalves = (1 << 28) + (1 << 27);
constexpr std::int32_t kHalfSquareRootOfTwo = 1518500250;

ir::Attributes readL2NormOptions(const tflite::Operator& op, const std::string& where) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::L2NormOptions>(op)) {
    readActivation(o->fused_activation_function(), where);  // refuses unknown values
    a.set("fused_activation_function", static_cast<std::int64_t>(o->fused_activation_function()));
  }
  return a;
}

// --- the algorithm, once --------------------------------------------------------

template <typename Value>
struct InverseSqrt {
  Value multiplier;
  Value shift;  // <= 0: a right shift
};

// 1 / sqrt(sum) as TFLite's GetInvSqrtQuantizedMultiplierExp(sum, -1): sums
// of at most 1 give (INT32_MAX, 0); larger ones are normalised into [2^27,
// 2^29) by pairs of bits, their inverse square root refined five times from 1
// in Q3.28 and multiplied by sqrt(2)/2. The steps run on 2 in place of a sum
// of at most 1, whose result is discarded, so every one stays defined.
template <typename Arithmetic>
InverseSqrt<typename Arithmetic::Value> inverseSqrt(Arithmetic& a,
                                                    const typename Arithmetic::Value& sum) {
  using Value = typename Arithmetic::Value;
  const auto trivial = a.bind("trivial", sum <= 1);
  const Value input = a.bind("input", a.select(trivial, 2, sum));
  // At most one division by 4 reaches [2, 2^29) from an int32.
  const auto large = a.bind("large", input >= (1 << 29));
  const Value reduced = a.bind("reduced", a.select(large, input / 4, input));
  const Value pairs = a.bind("pairs", (a.countLeadingZeros(reduced) - 1) / 2 - 1);
  const Value shift = a.bind("shift", a.select(large, 12, 11) - pairs);
  const Value normalized = a.wrappingShiftLeft(reduced, pairs * 2);
  const Value halfInput = a.bind("half_input", a.roundingDivideByPowerOfTwo(normalized >> 1, 1));
  Value x = 1 << 28;  // 1 in Q3.28
  // x = 3/2 x - input/2 x^3, five times: x^3 is Q9.22 and the products Q6.25,
  // each brought back to Q3.28.
  for (int i = 0; i < 5; ++i) {
    const Value cube = a.bind("x_cubed", a.timesPowerOfTwo(a.product(a.product(x, x), x), 9 - 3));
    x = a.bind("x", a.timesPowerOfTwo(
                        a.subtract(a.product(kThreeHalves, x), a.product(halfInput, cube)), 6 - 3));
  }
  x = a.bind("x", a.product(x, kHalfSquareRootOfTwo));
  // A negative shift moves into the multiplier.
  const Value multiplier = a.wrappingShiftLeft(x, a.max(0, 0 - shift));
  return {a.bind("inv_sqrt", a.select(trivial, INT32_MAX, multiplier)),
          a.bind("inv_sqrt_shift", a.select(trivial, 0, 0 - a.max(shift, 0)))};
}

// --- checks and reference ------------------------------------------------------

std::optional<std::string> checkL2Normalization(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = reference::checkElementwiseUnary(
          graph, op, reference::QuantizedOperands::InputOnly,
          {{ir::DType::Float32, ir::DType::Float32}, {ir::DType::Int8, ir::DType::Int8}})) {
    return problem;
  }
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.shape.empty() || input.shape.size() > 4) {
    return "input " + tensorText(input) + " must have one to four dimensions, as TFLM requires";
  }
  if (output.shape != input.shape) {
    return "output " + tensorText(output) + " must have the input's shape";
  }
  // TFLite's ActivationFunctionType, numbered as ir::Activation.
  const std::int64_t activation = optionOf(op, "fused_activation_function");
  if (activation != 0) {
    const std::string name =
        activation > 0 && activation <= static_cast<std::int64_t>(ir::Activation::SignBit)
            ? std::string(ir::activationName(static_cast<ir::Activation>(activation)))
            : std::to_string(activation);
    return "fused activation " + name +
           " is not supported (TFLM's L2_NORMALIZATION takes NONE only)";
  }
  return std::nullopt;
}

void l2NormalizationFloat(const float* input, float* output, Rows rows) {
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const float* in = input + row * rows.depth;
    float* out = output + row * rows.depth;
    float sumOfSquares = 0.0f;
    for (std::int64_t c = 0; c < rows.depth; ++c) sumOfSquares += in[c] * in[c];
    const float norm = std::max(loupe_sqrtf(sumOfSquares), kEpsilon);
    for (std::int64_t c = 0; c < rows.depth; ++c) out[c] = in[c] / norm;
  }
}

void l2NormalizationInt8(const std::int8_t* input, std::int8_t* output, Rows rows,
                         std::int32_t zeroPoint) {
  EvaluatingArithmetic arithmetic;
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const std::int8_t* in = input + row * rows.depth;
    std::int8_t* out = output + row * rows.depth;
    std::int32_t sumOfSquares = 0;
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      const std::int32_t x = in[c] - zeroPoint;
      sumOfSquares = loupe_wrapping_add_i32(sumOfSquares, x * x);
    }
    const auto inverse = inverseSqrt(arithmetic, sumOfSquares);
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      const std::int32_t value = loupe_multiply_by_quantized_multiplier(
          in[c] - zeroPoint, inverse.multiplier, inverse.shift + kOutputShift);
      out[c] = static_cast<std::int8_t>(std::clamp(value, -128, 127));
    }
  }
}

void evalL2Normalization(const ir::Graph& graph, const ir::Operator& op,
                         reference::TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const Rows rows = rowsOf(input);
  if (input.dtype == ir::DType::Float32) {
    l2NormalizationFloat(store.data<float>(op.inputs[0]), store.mutableData<float>(op.outputs[0]),
                         rows);
    return;
  }
  l2NormalizationInt8(store.data<std::int8_t>(op.inputs[0]),
                      store.mutableData<std::int8_t>(op.outputs[0]), rows,
                      static_cast<std::int32_t>(input.quantization.zeroPoint()));
}

// --- lowering ------------------------------------------------------------------

tir::Stmt l2NormalizationFloatRow(lowering::FunctionBuilder& fb, const tir::Buffer& in,
                                  const tir::Buffer& out, const RowLoop& r) {
  const tir::Buffer sum = fb.local("sum_of_squares", tir::ScalarType::Float32, 1);
  const tir::Var c = lowering::loopVar("c"), c2 = lowering::loopVar("c");
  const tir::Var root = tir::makeVar("root", tir::ScalarType::Float32);
  const tir::Var norm = tir::makeVar("norm", tir::ScalarType::Float32);
  const Expr x = tir::load(in, r.at(c));
  const Expr epsilon = tir::floatImm(kEpsilon);
  return tir::allocate(
      sum,
      tir::seq(
          {tir::store(sum, 0, tir::floatImm(0.0)),
           tir::forLoop(c, 0, r.depth, tir::store(sum, 0, tir::load(sum, 0) + x * x)),
           tir::let(
               root,
               tir::callIntrinsic("loupe.sqrtf", tir::ScalarType::Float32, {tir::load(sum, 0)}),
               // std::max(root, epsilon): root unless it is less (a NaN stays).
               tir::let(norm, tir::select(tir::refVar(root) < epsilon, epsilon, tir::refVar(root)),
                        tir::forLoop(c2, 0, r.depth,
                                     tir::store(out, r.at(c2),
                                                tir::load(in, r.at(c2)) / tir::refVar(norm)))))}));
}

tir::Stmt l2NormalizationInt8Row(lowering::FunctionBuilder& fb, const tir::Buffer& in,
                                 const tir::Buffer& out, const RowLoop& r, std::int32_t zeroPoint) {
  const tir::Buffer sum = fb.local("sum_of_squares", tir::ScalarType::Int32, 1);
  const tir::Var c = lowering::loopVar("c"), c2 = lowering::loopVar("c");
  auto centred = [&](const tir::Var& at) {
    return tir::cast(tir::ScalarType::Int32, tir::load(in, r.at(at))) - tir::intImm(zeroPoint);
  };
  const tir::Var x = tir::makeVar("x");
  TirArithmetic arithmetic;
  const auto inverse = inverseSqrt(arithmetic, arithmetic.bind("sum", tir::load(sum, 0)));
  const Expr value = tir::callIntrinsic(
      "loupe.multiply_by_quantized_multiplier", tir::ScalarType::Int32,
      {centred(c2), inverse.multiplier, inverse.shift + tir::intImm(kOutputShift)});
  const tir::Stmt outputs = tir::forLoop(
      c2, 0, r.depth,
      tir::store(out, r.at(c2),
                 tir::cast(tir::ScalarType::Int8,
                           tir::callIntrinsic("loupe.clamp_i32", tir::ScalarType::Int32,
                                              {value, -128, 127}))));
  const Expr square = tir::refVar(x) * tir::refVar(x);
  return tir::allocate(
      sum,
      tir::seq({tir::store(sum, 0, 0),
                tir::forLoop(c, 0, r.depth,
                             tir::let(x, centred(c),
                                      tir::store(sum, 0,
                                                 tir::callIntrinsic("loupe.wrapping_add_i32",
                                                                    tir::ScalarType::Int32,
                                                                    {tir::load(sum, 0), square})))),
                arithmetic.wrap(outputs)}));
}

tir::PrimFunc lowerL2Normalization(const ir::Graph& graph, const ir::Operator& op,
                                   const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  return lowerByRows(graph, op, functionName,
                     [&](lowering::FunctionBuilder& fb, const tir::Buffer& in,
                         const tir::Buffer& out, const RowLoop& r) {
                       return input.dtype == ir::DType::Float32
                                  ? l2NormalizationFloatRow(fb, in, out, r)
                                  : l2NormalizationInt8Row(
                                        fb, in, out, r,
                                        static_cast<std::int32_t>(input.quantization.zeroPoint()));
                     });
}

// Two per element: its square and its scaling.
std::int64_t l2NormalizationMacs(const ir::Graph& graph, const ir::Operator& op) {
  return 2 * graph.output(op, 0).elementCount();
}

const reference::Kernel kL2NormalizationKernel{ir::OpType::L2Normalization, checkL2Normalization,
                                               evalL2Normalization};

}  // namespace

extern const OperatorDefinition kL2NormalizationDefinition{
    .type = ir::OpType::L2Normalization,
    .dtypes = "float32, int8 (output on scale 1/128, zero point 0)",
    .import = {.optionsType = optionsTypeOf<tflite::L2NormOptions>(),
               .maxVersion = 2,
               .readOptions = readL2NormOptions},
    .shape = sameAsInput,
    .kernel = &kL2NormalizationKernel,
    .lower = lowerL2Normalization,
    .macs = l2NormalizationMacs,
};

}  // namespace loupe::ops
