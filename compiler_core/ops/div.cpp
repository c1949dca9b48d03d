// DIV: input1 / input2 element-wise, with NumPy broadcasting and the fused
// activation of DivOptions, as TFLite Micro computes it:
//   float32  a / b clamped to the activation's range (NONE's is +-FLT_MAX, so
//            an infinite quotient becomes +-FLT_MAX, as in TFLM);
//   int32    C's truncating a / b, clamped to the activation's range; the
//            inputs must be unquantised;
//   int8     TFLM's fixed-point quotient: the dividend a - za (negated when
//            the divisor is negative) is normalised by its leading sign bits
//            and multiplied by the Q0.31 reciprocal of |b - zb|, the product
//            rescaled by s1 / (s2 * so) (a float ratio, as TFLM computes it),
//            offset by the output zero point and clamped.
// Where TFLM's C++ is undefined, Loupe defines it:
//  - A zero divisor (int32 0, int8 b == zb) is not checked by TFLM (a trap on
//    x86, 0 from Cortex-M's SDIV, garbage from the int8 reciprocal). Loupe
//    fails the operator before writing any output: the reference throws, the
//    generated C returns an error status. float32 keeps IEEE's inf and NaN.
//  - INT32_MIN / -1 gives INT32_MIN, the wrapped quotient Arm's SDIV gives.
//  - int8: when the rescaling exponent exceeds 31 (scale ratios below 64 with
//    small dividends and large divisors), TFLM shifts an int32 by 32 or more.
//    Loupe gives what that code gives on Arm: 1 for a non-negative rescaled
//    value and -1 for a negative one (a zero dividend gives 1 on x86 too).
//    Scales whose rescaling would need a left shift are refused.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "loupe/fixed_point.h"
#include "loupe/fixed_point_math.h"
#include "loupe/fused_activation.h"
#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/divisor_check.h"
#include "ops/elementwise_binary_common.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

// ir::Activation lists TFLite's ActivationFunctionType values in order, so an
// option value converts directly.
static_assert(static_cast<int>(ir::Activation::Relu6) ==
              static_cast<int>(tflite::ActivationFunctionType::RELU6));
static_assert(static_cast<int>(ir::Activation::SignBit) ==
              static_cast<int>(tflite::ActivationFunctionType::SIGN_BIT));

ir::Attributes readDivOptions(const tflite::Operator& op, const std::string& where) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::DivOptions>(op)) {
    readActivation(o->fused_activation_function(), where);  // refuses unknown values
    a.set("fused_activation_function", static_cast<std::int64_t>(o->fused_activation_function()));
  }
  return a;
}

std::optional<InferredOutput> broadcastShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op);
}

std::optional<ir::Activation> fusedActivation(const ir::Operator& op) {
  const std::int64_t code = optionOf(op, "fused_activation_function");
  if (code < 0 || code > static_cast<std::int64_t>(ir::Activation::SignBit)) return std::nullopt;
  return static_cast<ir::Activation>(code);
}

// --- int8 ---------------------------------------------------------------------

// TFLM's per-operator parameters of the int8 quotient.
struct QuantizedDivParams {
  std::int32_t dividendZeroPoint = 0, divisorZeroPoint = 0, outputZeroPoint = 0;
  reference::QuantizedMultiplier output;  // s1 / (s2 * so)
  reference::IntRange range;
};

// The rescaling exponent is output.shift - reciprocal shift - headroom; the
// headroom of an int8 dividend is at least 23 and the reciprocal shift at
// least 0, so shifts up to 23 never shift left.
constexpr int kMaxOutputShift = 23;

QuantizedDivParams quantizedDivParams(const ir::Tensor& input1, const ir::Tensor& input2,
                                      const ir::Tensor& output, ir::Activation activation) {
  QuantizedDivParams p;
  p.dividendZeroPoint = static_cast<std::int32_t>(input1.quantization.zeroPoint());
  p.divisorZeroPoint = static_cast<std::int32_t>(input2.quantization.zeroPoint());
  p.outputZeroPoint = static_cast<std::int32_t>(output.quantization.zeroPoint());
  // TFLM divides in float and widens the ratio to double.
  const float ratio =
      input1.quantization.scale() / (input2.quantization.scale() * output.quantization.scale());
  p.output = reference::quantizeMultiplier(static_cast<double>(ratio));
  p.range = reference::quantizedActivationRange(activation, output);
  return p;
}

// TFLM's CountLeadingSignBits: the bits after the sign bit equal to it.
int leadingSignBits(std::int32_t x) {
  return loupe_count_leading_zeros_u32(static_cast<std::uint32_t>(x < 0 ? ~x : x)) - 1;
}

// What the quotient needs of a divisor magnitude in [1, 255]: its Q0.31
// reciprocal (TFLM's GetReciprocal with 31 integer digits) and the output
// shift less the reciprocal's exponent.
struct DivisorFactors {
  std::int32_t reciprocal = 0;
  int quotientShift = 0;
};

DivisorFactors divisorFactors(std::int32_t magnitude, int outputShift) {
  DivisorFactors f;
  int reciprocalShift = 0;
  f.reciprocal = loupe_get_reciprocal(magnitude, 31, &reciprocalShift);
  f.quotientShift = outputShift - reciprocalShift;
  return f;
}

// TFLM's RoundingDivideByPOT of the rescaled quotient; exponents past 31
// give what TFLM's shifts give on Arm (see the header).
std::int32_t roundedQuotient(std::int32_t scaled, int exponent) {
  if (exponent > 31) return scaled < 0 ? -1 : 1;
  return loupe_rounding_divide_by_pot(scaled, exponent);
}

// One int8 output element (before the cast) of dividend a - za and nonzero
// divisor b - zb.
std::int32_t quantizedQuotient(std::int32_t dividend, std::int32_t divisor,
                               const QuantizedDivParams& p) {
  const std::int32_t numerator = divisor < 0 ? -dividend : dividend;
  const DivisorFactors f = divisorFactors(divisor < 0 ? -divisor : divisor, p.output.shift);
  const int headroom = leadingSignBits(numerator);
  const std::int32_t unscaled =
      loupe_multiply_by_quantized_multiplier_greater_than_one(numerator, f.reciprocal, headroom);
  const std::int32_t scaled =
      loupe_saturating_rounding_doubling_high_mul(unscaled, p.output.multiplier);
  const std::int32_t quotient = roundedQuotient(scaled, headroom - f.quotientShift);
  return loupe_clamp_i32(p.outputZeroPoint + quotient, p.range.min, p.range.max);
}

// --- int32 --------------------------------------------------------------------

// a / b truncated; INT32_MIN / -1 wraps to INT32_MIN.
std::int32_t truncatingQuotient(std::int32_t a, std::int32_t b) {
  if (b == -1) return static_cast<std::int32_t>(-static_cast<std::int64_t>(a));
  return a / b;
}

// --- check and reference --------------------------------------------------------

std::optional<std::string> checkDiv(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = reference::checkBinaryOperands(
          graph, op, {ir::DType::Float32, ir::DType::Int32, ir::DType::Int8})) {
    return problem;
  }
  const auto activation = fusedActivation(op);
  if (!activation) {
    return "fused_activation_function " +
           std::to_string(optionOf(op, "fused_activation_function")) +
           " is not a TFLite activation";
  }
  if (auto problem = reference::unsupportedActivation(*activation)) return problem;
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input1.dtype == ir::DType::Int32) {
    for (const auto& [role, t] : {std::pair{"input1", &input1}, {"input2", &input2}}) {
      if (t->quantization.isQuantized()) {
        return "int32 DIV is supported unquantised only (as TFLite Micro); " +
               reference::describeTensor(role, *t) + " has quantisation parameters";
      }
    }
  }
  if (input1.dtype == ir::DType::Int8) {
    for (const auto& [role, t] :
         {std::pair{"input1", &input1}, {"input2", &input2}, {"output", &output}}) {
      if (auto problem = reference::checkPerTensorQuantization(role, *t)) return problem;
    }
    const QuantizedDivParams p = quantizedDivParams(input1, input2, output, *activation);
    const float ratio =
        input1.quantization.scale() / (input2.quantization.scale() * output.quantization.scale());
    if (!std::isfinite(ratio) || p.output.shift > kMaxOutputShift) {
      return "the rescaling ratio input1 scale / (input2 scale * output scale) = " +
             std::to_string(ratio) +
             " is too large (TFLite Micro's quotient arithmetic needs it below 2^" +
             std::to_string(kMaxOutputShift) + ")";
    }
  }
  return std::nullopt;
}

// TFLM does not check divisors; Loupe fails before writing (see the header).
template <typename T>
void requireNonZeroDivisors(const ir::Graph& graph, const ir::Operator& op,
                            const reference::TensorStore& store, T zero) {
  const T* divisors = store.data<T>(op.inputs[1]);
  const std::int64_t count = graph.tensor(op.inputs[1]).elementCount();
  for (std::int64_t i = 0; i < count; ++i) {
    if (divisors[i] == zero) {
      throw std::out_of_range("#" + std::to_string(op.index) + " DIV: input2 element " +
                              std::to_string(i) + " is a zero divisor");
    }
  }
}

void evalDiv(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Activation activation = *fusedActivation(op);
  const ir::Tensor& input1 = *graph.input(op, 0);
  switch (input1.dtype) {
    case ir::DType::Float32: {
      const reference::FloatRange range = reference::floatActivationRange(activation);
      reference::evalBinaryBroadcast<float>(graph, op, store, [&](float a, float b) {
        return loupe_clamp_f32(a / b, range.min, range.max);
      });
      break;
    }
    case ir::DType::Int32: {
      requireNonZeroDivisors<std::int32_t>(graph, op, store, 0);
      const reference::IntRange range = reference::int32ActivationRange(activation);
      reference::evalBinaryBroadcast<std::int32_t>(
          graph, op, store, [&](std::int32_t a, std::int32_t b) {
            return loupe_clamp_i32(truncatingQuotient(a, b), range.min, range.max);
          });
      break;
    }
    default: {
      const QuantizedDivParams p =
          quantizedDivParams(input1, *graph.input(op, 1), graph.output(op, 0), activation);
      requireNonZeroDivisors<std::int8_t>(graph, op, store,
                                          static_cast<std::int8_t>(p.divisorZeroPoint));
      reference::evalBinaryBroadcast<std::int8_t>(
          graph, op, store, [&](std::int8_t a, std::int8_t b) {
            return static_cast<std::int8_t>(
                quantizedQuotient(a - p.dividendZeroPoint, b - p.divisorZeroPoint, p));
          });
      break;
    }
  }
}

// --- lowering -----------------------------------------------------------------

// let v1 = e1 in let v2 = e2 in ... body.
tir::Stmt bindInOrder(const std::vector<std::pair<tir::Var, tir::Expr>>& bindings, tir::Stmt body) {
  for (auto it = bindings.rbegin(); it != bindings.rend(); ++it) {
    body = tir::let(it->first, it->second, body);
  }
  return body;
}

tir::PrimFunc lowerDiv(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  const ir::Activation activation = *fusedActivation(op);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer dividends = fb.input(op.inputs[0], "input1");
  const tir::Buffer divisors = fb.input(op.inputs[1], "input2");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  auto loops = [&](const BroadcastBody& body) {
    return broadcastLoops(output.shape, input1.shape, input2.shape, body);
  };

  if (input1.dtype == ir::DType::Float32) {
    const reference::FloatRange range = reference::floatActivationRange(activation);
    return fb.finish(loops([&](const tir::Expr& o, const tir::Expr& i1, const tir::Expr& i2) {
      return tir::store(out, o,
                        tir::callIntrinsic("loupe.clamp_f32", tir::ScalarType::Float32,
                                           {tir::load(dividends, i1) / tir::load(divisors, i2),
                                            tir::floatImm(range.min), tir::floatImm(range.max)}));
    }));
  }

  if (input1.dtype == ir::DType::Int32) {
    const reference::IntRange range = reference::int32ActivationRange(activation);
    std::vector<tir::Stmt> body = zeroDivisorCheck(graph, op, divisors);
    body.push_back(loops([&](const tir::Expr& o, const tir::Expr& i1, const tir::Expr& i2) {
      const tir::Var a = tir::makeVar("dividend"), b = tir::makeVar("divisor");
      const tir::Expr x = tir::refVar(a), y = tir::refVar(b);
      // -x in 64 bits, wrapped back: INT32_MIN / -1 gives INT32_MIN.
      const tir::Expr negated =
          tir::cast(tir::ScalarType::Int32,
                    tir::intImm(0, tir::ScalarType::Int64) - tir::cast(tir::ScalarType::Int64, x));
      const tir::Expr quotient = tir::select(tir::eq(y, tir::intImm(-1)), negated, x / y);
      const bool clamps = range.min != INT32_MIN || range.max != INT32_MAX;
      const tir::Expr value =
          clamps ? tir::callIntrinsic("loupe.clamp_i32", tir::ScalarType::Int32,
                                      {quotient, tir::intImm(range.min), tir::intImm(range.max)})
                 : quotient;
      // The divisor first: a broadcast one is then hoisted out of the loops.
      return bindInOrder({{b, tir::load(divisors, i2)}, {a, tir::load(dividends, i1)}},
                         tir::store(out, o, value));
    }));
    return fb.finish(tir::seq(body));
  }

  // int8: the divisor's reciprocal and shift come from tables indexed by the
  // stored divisor, the dividend's headroom from a table indexed by its
  // magnitude (x or -1 - x), all computed by the reference's functions.
  const QuantizedDivParams p = quantizedDivParams(input1, input2, output, activation);
  std::vector<std::int32_t> reciprocals;
  std::vector<std::int8_t> quotientShifts, headrooms;
  for (int stored = -128; stored <= 127; ++stored) {
    const std::int32_t divisor = stored - p.divisorZeroPoint;
    const DivisorFactors f = divisor == 0
                                 ? DivisorFactors{}
                                 : divisorFactors(divisor < 0 ? -divisor : divisor, p.output.shift);
    reciprocals.push_back(f.reciprocal);
    quotientShifts.push_back(static_cast<std::int8_t>(f.quotientShift));
  }
  // A dividend x has the headroom of x >= 0 ? x : -1 - x, in [0, 255].
  for (std::int32_t magnitude = 0; magnitude <= 255; ++magnitude) {
    headrooms.push_back(static_cast<std::int8_t>(leadingSignBits(magnitude)));
  }
  const tir::Buffer reciprocalTable =
      fb.constant("divisor_reciprocal", tir::ScalarType::Int32, reciprocals);
  const tir::Buffer shiftTable =
      fb.constant("divisor_quotient_shift", tir::ScalarType::Int8, quotientShifts);
  const tir::Buffer headroomTable =
      fb.constant("dividend_headroom", tir::ScalarType::Int8, headrooms);

  std::vector<tir::Stmt> body = zeroDivisorCheck(graph, op, divisors, p.divisorZeroPoint);
  body.push_back(loops([&](const tir::Expr& o, const tir::Expr& i1, const tir::Expr& i2) {
    using tir::cast, tir::intImm, tir::refVar;
    constexpr auto kInt32 = tir::ScalarType::Int32;
    const tir::Var divisorEntry = tir::makeVar("divisor_entry"), divisor = tir::makeVar("divisor"),
                   numerator = tir::makeVar("numerator"), headroom = tir::makeVar("headroom"),
                   scaled = tir::makeVar("scaled"), exponent = tir::makeVar("exponent");
    const tir::Expr dividend = cast(kInt32, tir::load(dividends, i1)) - p.dividendZeroPoint;
    const tir::Expr n = refVar(numerator);
    const tir::Expr magnitude = tir::select(n < 0, intImm(-1) - n, n);
    const tir::Expr unscaled =
        tir::callIntrinsic("loupe.multiply_by_quantized_multiplier_greater_than_one", kInt32,
                           {n, tir::load(reciprocalTable, refVar(divisorEntry)), refVar(headroom)});
    // SaturatingRoundingDoublingHighMul: the greater-than-one product without a shift.
    const tir::Expr rescaled =
        tir::callIntrinsic("loupe.multiply_by_quantized_multiplier_greater_than_one", kInt32,
                           {unscaled, intImm(p.output.multiplier), intImm(0)});
    const tir::Expr s = refVar(scaled);
    const tir::Expr quotient = tir::select(
        refVar(exponent) > 31, tir::select(s < 0, intImm(-1), intImm(1)),
        tir::callIntrinsic("loupe.rounding_divide_by_pot", kInt32, {s, refVar(exponent)}));
    const tir::Stmt write = tir::store(
        out, o,
        cast(tir::ScalarType::Int8,
             tir::callIntrinsic(
                 "loupe.clamp_i32", kInt32,
                 {quotient + p.outputZeroPoint, intImm(p.range.min), intImm(p.range.max)})));
    // Bound in order, so hoisting moves the divisor's terms out of the loops
    // a broadcast divisor does not change in.
    return bindInOrder(
        {{divisorEntry, cast(kInt32, tir::load(divisors, i2)) + 128},
         {divisor, cast(kInt32, tir::load(divisors, i2)) - p.divisorZeroPoint},
         {numerator, tir::select(refVar(divisor) < 0, intImm(0) - dividend, dividend)},
         {headroom, cast(kInt32, tir::load(headroomTable, magnitude))},
         {scaled, rescaled},
         {exponent, refVar(headroom) - cast(kInt32, tir::load(shiftTable, refVar(divisorEntry)))}},
        write);
  }));
  return fb.finish(tir::seq(body));
}

const reference::Kernel kDivKernel{ir::OpType::Div, checkDiv, evalDiv};

}  // namespace

extern const OperatorDefinition kDivDefinition{
    .type = ir::OpType::Div,
    .dtypes = "float32, int32 (unquantised), int8 (same type for inputs and output)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::DivOptions>(),
               .maxVersion = 2,
               .readOptions = readDivOptions},
    .shape = broadcastShape,
    .kernel = &kDivKernel,
    .lower = lowerDiv,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
