// LOG_SOFTMAX: x - max - log(sum(exp(x - max))) along the last dimension, as
// TFLite Micro computes it. float32: Loupe's expf and logf (loupe/loupe_libm.h), summed
// in float in order. int8 (reference_ops::LogSoftmax, fixed point): the
// output scale must be 16/256 and its zero point 127; input differences to
// the row maximum are rescaled to Q5.26 (beta 1, the multiplier SOFTMAX
// derives), those below diff_min left out of the Q12.19 sum of exponentials;
// the sum's logarithm is TFLite's log_x_for_x_greater_than_or_equal_to_1 in
// Q5.26; elements within the reverse-scaled range give
// (scaled difference - log) / 2^22 + 127, the rest -128. TFLM's Prepare
// aborts when the rescaling multipliers cannot be formed; the check says so.
//
// The logarithm is computed once per row from run-time data, so the generated
// C needs it too: logOfSumOfExps below is written once over an arithmetic
// that either evaluates (the reference kernel) or emits TIR Lets built from
// the fixed-point intrinsics (the lowering), so both take the same steps.
// Each arithmetic primitive of the evaluating side is the loupe_ C function
// (gemmlowp's semantics); the TIR side rebuilds it from intrinsics. Sums that
// wrap past 2^31 (rows of 4096 and more near the maximum) are undefined in
// TFLM; here both sides continue with the defined extensions of the helpers.
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
#include "ops/options_reading.h"
#include "reference/activation_params.h"
#include "reference/kernel_checks.h"
#include "reference/unary_kernel_support.h"

namespace loupe::ops {

namespace {

using tir::Expr;

constexpr int kScaledDiffIntegerBits = reference::kSoftmaxScaledDiffIntegerBits;      // Q5.26
constexpr int kAccumulationIntegerBits = reference::kSoftmaxAccumulationIntegerBits;  // Q12.19
constexpr int kOutputIntegerBits = 4;
// The logarithm accumulates with one integer bit more than its result.
constexpr int kLogAccumulatorIntegerBits = kScaledDiffIntegerBits + 1;
constexpr std::int32_t kOutputZeroPoint = 127;
constexpr float kOutputScale = 16.0f / 256;

// Q0.31 constants of the logarithm: log(2), 2^-1/4, 2^-1/2, and the
// coefficients of its rational approximation on [2^-1/4, 2^1/4).
constexpr std::int32_t kLogOfTwo = 1488522236;
constexpr std::int32_t kFourthRootOfHalf = 1805811301;
constexpr std::int32_t kSquareRootOfHalf = 1518500250;
constexpr std::int32_t kOneQuarter = 536870912;
constexpr std::int32_t kAlphaN = 117049297;
constexpr std::int32_t kAlphaD = 127690142;
constexpr std::int32_t kAlphaI = 1057819769;
constexpr std::int32_t kAlphaF = 638450708;

// --- the algorithm, once --------------------------------------------------------

// log(sum) in Q5.26 for the Q12.19 sum of a row (TFLite's
// log_x_for_x_greater_than_or_equal_to_1<5>): the sum normalised to
// [2^-1/4, 2^1/4) times a power of two, the power times log(2) plus a rational
// approximation of the rest.
template <typename Arithmetic>
typename Arithmetic::Value logOfSumOfExps(Arithmetic& a, const typename Arithmetic::Value& sum) {
  using Value = typename Arithmetic::Value;
  constexpr int kLogBits = 31 - kLogAccumulatorIntegerBits;
  const std::int32_t shiftedQuarter =
      loupe_fixed_point_rescale(kOneQuarter, 0, kLogAccumulatorIntegerBits);
  // Normalisation a: the leading one at bit 30, times sqrt(1/2) * 2.
  const Value headroomA = a.bind("headroom_a", a.countLeadingZeros(sum));
  const Value normalizedA = a.bind("r_a", a.timesPowerOfTwo(sum, headroomA - 1));
  const Value residualA =
      a.bind("r_a", a.timesPowerOfTwo(a.product(normalizedA, kSquareRootOfHalf), 1));
  const Value powerA = a.bind(
      "z_a", a.saturatingAdd(a.timesPowerOfTwo(kAccumulationIntegerBits - headroomA, kLogBits),
                             shiftedQuarter));
  // Normalisation b: of sum * sqrt(1/2).
  const Value headroomB =
      a.bind("headroom_b", a.countLeadingZeros(a.product(sum, kSquareRootOfHalf)) - 1);
  const Value residualB = a.bind("r_b", a.timesPowerOfTwo(sum, headroomB));
  const Value powerB = a.bind(
      "z_b", a.saturatingSubtract(a.timesPowerOfTwo(kAccumulationIntegerBits - headroomB, kLogBits),
                                  shiftedQuarter));
  const Value r = a.bind("r", a.min(residualA, residualB));
  const Value power = a.bind("z", a.max(powerA, powerB));

  const Value p = a.bind("p", a.roundingHalfSum(r, kFourthRootOfHalf));
  const Value halfQ = a.bind("q", a.subtract(r, kFourthRootOfHalf));
  const Value q = a.bind("q", a.add(halfQ, halfQ));
  const Value qSquared = a.bind("q2", a.product(q, q));
  const Value numerator =
      a.bind("num", a.add(a.product(q, r), a.product(a.product(q, qSquared), kAlphaN)));
  const Value denominatorMinusOne =
      a.bind("denom", a.add(a.product(p, a.add(a.add(kAlphaI, q), a.product(kAlphaD, qSquared))),
                            a.product(kAlphaF, q)));
  const Value reciprocal = a.bind("recip", a.oneOverOnePlusX(denominatorMinusOne));
  const Value numeratorScaled =
      a.roundingDivideByPowerOfTwo(numerator, kLogAccumulatorIntegerBits);  // Q0.31 -> Q6.25
  const Value logSum = a.add(a.product(power, kLogOfTwo), a.product(numeratorScaled, reciprocal));
  return a.bind("log_sum",
                a.timesPowerOfTwo(logSum, kLogAccumulatorIntegerBits - kScaledDiffIntegerBits));
}

// --- parameters and checks ----------------------------------------------------

// TFLM's LogSoftmaxOpData, or why its Prepare aborts.
struct LogSoftmaxInt8Params {
  reference::SoftmaxInt8Params scaling;    // beta 1: multiplier, left shift, diff_min
  reference::QuantizedMultiplier reverse;  // the inverse scaling, shift <= 0
  std::string problem;
};

LogSoftmaxInt8Params logSoftmaxInt8Params(float inputScale) {
  LogSoftmaxInt8Params p;
  p.scaling = reference::softmaxInt8Params(inputScale, 1.0f);
  const double real = static_cast<double>(inputScale) * (1 << (31 - kScaledDiffIntegerBits));
  if (!(real > 1.0)) {
    p.problem = "input scale " + std::to_string(inputScale) +
                " is at most 2^-26; TFLM needs more to rescale input differences";
    return p;
  }
  // A multiplier above 1 has a left shift of at least 1.
  const double reverse = static_cast<double>(std::int64_t{1} << (31 - p.scaling.inputLeftShift)) /
                         static_cast<double>(p.scaling.inputMultiplier);
  p.reverse = reference::quantizeMultiplier(reverse);
  if (!(reverse < 1.0) || !(reverse > 0.0) || p.reverse.shift > 0) {
    p.problem = "input scale " + std::to_string(inputScale) +
                " gives a reverse scaling TFLM cannot represent below 1";
  }
  return p;
}

std::optional<std::string> checkLogSoftmax(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = reference::checkElementwiseUnary(
          graph, op, reference::QuantizedOperands::InputAndOutput,
          {{ir::DType::Float32, ir::DType::Float32}, {ir::DType::Int8, ir::DType::Int8}})) {
    return problem;
  }
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.shape.empty()) {
    return "input " + tensorText(input) + " is a scalar; LOG_SOFTMAX needs a last dimension";
  }
  if (output.shape != input.shape) {
    return "output " + tensorText(output) + " must have the input's shape";
  }
  if (input.dtype == ir::DType::Float32) return std::nullopt;
  if (output.quantization.scale() != kOutputScale ||
      output.quantization.zeroPoint() != kOutputZeroPoint) {
    return "output " + tensorText(output) +
           " must have scale 16/256 (0.0625) and zero point 127, as TFLM requires";
  }
  const LogSoftmaxInt8Params p = logSoftmaxInt8Params(input.quantization.scale());
  if (!p.problem.empty()) return p.problem;
  return std::nullopt;
}

// --- reference ------------------------------------------------------------------

void logSoftmaxFloat(const float* input, float* output, Rows rows) {
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const float* in = input + row * rows.depth;
    float* out = output + row * rows.depth;
    float max = std::numeric_limits<float>::lowest();
    for (std::int64_t c = 0; c < rows.depth; ++c) max = std::max(max, in[c]);
    float sum = 0.0f;
    for (std::int64_t c = 0; c < rows.depth; ++c) sum += loupe_expf(in[c] - max);
    const float logSum = loupe_logf(sum);
    for (std::int64_t c = 0; c < rows.depth; ++c) out[c] = in[c] - max - logSum;
  }
}

// exp(difference) as a term of the Q12.19 sum; 0 below diff_min.
std::int32_t sumTerm(std::int32_t difference, const reference::SoftmaxInt8Params& s) {
  return loupe_softmax_sum_term(
      loupe_softmax_exp_q31(difference, s.diffMin, s.inputMultiplier, s.inputLeftShift));
}

void logSoftmaxInt8(const std::int8_t* input, std::int8_t* output, Rows rows,
                    const LogSoftmaxInt8Params& p) {
  const reference::SoftmaxInt8Params& s = p.scaling;
  constexpr int kOutputShift = 31 - kScaledDiffIntegerBits - kOutputIntegerBits;
  EvaluatingArithmetic arithmetic;
  for (std::int64_t row = 0; row < rows.count; ++row) {
    const std::int8_t* in = input + row * rows.depth;
    std::int8_t* out = output + row * rows.depth;
    std::int8_t max = std::numeric_limits<std::int8_t>::min();
    for (std::int64_t c = 0; c < rows.depth; ++c) max = std::max(max, in[c]);
    std::int32_t sumOfExps = 0;
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      sumOfExps = loupe_wrapping_add_i32(sumOfExps, sumTerm(in[c] - max, s));
    }
    const std::int32_t logSum = logOfSumOfExps(arithmetic, sumOfExps);
    // Differences whose rescaled value minus the logarithm would pass the
    // lowest Q5.26 value give the lowest output.
    const std::int32_t threshold =
        std::max(s.diffMin - 1,
                 loupe_multiply_by_quantized_multiplier(loupe_wrapping_add_i32(logSum, INT32_MIN),
                                                        p.reverse.multiplier, p.reverse.shift));
    for (std::int64_t c = 0; c < rows.depth; ++c) {
      const std::int32_t difference = in[c] - max;
      if (difference > threshold) {
        const std::int32_t scaled =
            loupe_multiply_by_quantized_multiplier(difference, s.inputMultiplier, s.inputLeftShift);
        const std::int32_t value =
            loupe_rounding_divide_by_pot(loupe_wrapping_sub_i32(scaled, logSum), kOutputShift) +
            kOutputZeroPoint;
        out[c] = static_cast<std::int8_t>(std::clamp(value, -128, 127));
      } else {
        out[c] = std::numeric_limits<std::int8_t>::min();
      }
    }
  }
}

void evalLogSoftmax(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const Rows rows = rowsOf(input);
  if (input.dtype == ir::DType::Float32) {
    logSoftmaxFloat(store.data<float>(op.inputs[0]), store.mutableData<float>(op.outputs[0]), rows);
    return;
  }
  logSoftmaxInt8(store.data<std::int8_t>(op.inputs[0]),
                 store.mutableData<std::int8_t>(op.outputs[0]), rows,
                 logSoftmaxInt8Params(input.quantization.scale()));
}

// --- lowering ------------------------------------------------------------------

// Above this many elements the sum's terms come from a 256-entry table (1
// KiB) indexed by max - x instead of an exp per element.
constexpr std::int64_t kSumTermTableMinElements = 256;

// row_max[0] = the row's largest element, then `rest`.
tir::Stmt withRowMax(const tir::Buffer& in, const tir::Buffer& rowMax, const RowLoop& r,
                     Expr lowest, tir::Stmt rest) {
  const tir::Var c = lowering::loopVar("c");
  const Expr x = tir::cast(rowMax->type, tir::load(in, r.at(c)));
  const Expr current = tir::load(rowMax, 0);
  // std::max(current, x): NaN rules included for float.
  const Expr larger =
      tir::isFloat(rowMax->type) ? tir::select(current < x, x, current) : tir::maxExpr(current, x);
  return tir::allocate(
      rowMax, tir::seq({tir::store(rowMax, 0, std::move(lowest)),
                        tir::forLoop(c, 0, r.depth, tir::store(rowMax, 0, larger)), rest}));
}

tir::Stmt logSoftmaxFloatRow(lowering::FunctionBuilder& fb, const tir::Buffer& in,
                             const tir::Buffer& out, const RowLoop& r) {
  const tir::Buffer rowMax = fb.local("row_max", tir::ScalarType::Float32, 1);
  const tir::Buffer sum = fb.local("sum", tir::ScalarType::Float32, 1);
  const tir::Var c = lowering::loopVar("c"), c2 = lowering::loopVar("c");
  const tir::Var logSum = tir::makeVar("log_sum", tir::ScalarType::Float32);
  const Expr max = tir::load(rowMax, 0);
  const Expr term =
      tir::callIntrinsic("loupe.expf", tir::ScalarType::Float32, {tir::load(in, r.at(c)) - max});
  const tir::Stmt rest = tir::allocate(
      sum,
      tir::seq(
          {tir::store(sum, 0, tir::floatImm(0.0)),
           tir::forLoop(c, 0, r.depth, tir::store(sum, 0, tir::load(sum, 0) + term)),
           tir::let(
               logSum,
               tir::callIntrinsic("loupe.logf", tir::ScalarType::Float32, {tir::load(sum, 0)}),
               tir::forLoop(c2, 0, r.depth,
                            tir::store(out, r.at(c2),
                                       (tir::load(in, r.at(c2)) - max) - tir::refVar(logSum))))}));
  return withRowMax(in, rowMax, r, tir::floatImm(-std::numeric_limits<float>::max()), rest);
}

tir::Stmt logSoftmaxInt8Row(lowering::FunctionBuilder& fb, const tir::Buffer& in,
                            const tir::Buffer& out, const RowLoop& r, const LogSoftmaxInt8Params& p,
                            bool useTable) {
  const reference::SoftmaxInt8Params& s = p.scaling;
  const tir::Buffer rowMax = fb.local("row_max", tir::ScalarType::Int32, 1);
  const tir::Buffer sum = fb.local("sum", tir::ScalarType::Int32, 1);
  const tir::Var c = lowering::loopVar("c"), c2 = lowering::loopVar("c");
  const Expr max = tir::load(rowMax, 0);
  auto element = [&](const tir::Var& at) {
    return tir::cast(tir::ScalarType::Int32, tir::load(in, r.at(at)));
  };
  Expr term;
  if (useTable) {
    std::vector<std::int32_t> terms(256);
    for (int i = 0; i < 256; ++i) terms[static_cast<std::size_t>(i)] = sumTerm(-i, s);
    term =
        tir::load(fb.constant("sum_term_table", tir::ScalarType::Int32, terms), max - element(c));
  } else {
    term = tir::callIntrinsic(
        "loupe.softmax_sum_term", tir::ScalarType::Int32,
        {tir::callIntrinsic("loupe.softmax_exp_q31", tir::ScalarType::Int32,
                            {element(c) - max, s.diffMin, s.inputMultiplier, s.inputLeftShift})});
  }
  TirArithmetic arithmetic;
  const Expr logSum = logOfSumOfExps(arithmetic, arithmetic.bind("sum_of_exps", tir::load(sum, 0)));
  const Expr threshold = arithmetic.bind(
      "threshold", tir::maxExpr(tir::intImm(s.diffMin - 1),
                                tir::callIntrinsic("loupe.multiply_by_quantized_multiplier",
                                                   tir::ScalarType::Int32,
                                                   {arithmetic.add(logSum, INT32_MIN),
                                                    p.reverse.multiplier, p.reverse.shift})));
  // Bound here, outside the per-element loop: -log_sum, wrapping.
  const Expr minusLogSum = arithmetic.bind("minus_log_sum", arithmetic.subtract(0, logSum));
  const tir::Var difference = tir::makeVar("difference");
  const Expr d = tir::refVar(difference);
  const Expr scaled =
      tir::callIntrinsic("loupe.multiply_by_quantized_multiplier", tir::ScalarType::Int32,
                         {d, s.inputMultiplier, s.inputLeftShift});
  const Expr value = tir::callIntrinsic("loupe.rounding_divide_by_pot", tir::ScalarType::Int32,
                                        {arithmetic.add(scaled, minusLogSum),
                                         31 - kScaledDiffIntegerBits - kOutputIntegerBits}) +
                     tir::intImm(kOutputZeroPoint);
  const Expr output =
      tir::select(d > threshold,
                  tir::callIntrinsic("loupe.clamp_i32", tir::ScalarType::Int32, {value, -128, 127}),
                  tir::intImm(-128));
  const tir::Stmt outputs =
      tir::forLoop(c2, 0, r.depth,
                   tir::let(difference, element(c2) - max,
                            tir::store(out, r.at(c2), tir::cast(tir::ScalarType::Int8, output))));
  const tir::Stmt rest = tir::allocate(
      sum, tir::seq({tir::store(sum, 0, 0),
                     tir::forLoop(c, 0, r.depth,
                                  tir::store(sum, 0,
                                             tir::callIntrinsic("loupe.wrapping_add_i32",
                                                                tir::ScalarType::Int32,
                                                                {tir::load(sum, 0), term}))),
                     arithmetic.wrap(outputs)}));
  return withRowMax(in, rowMax, r, tir::intImm(-128), rest);
}

tir::PrimFunc lowerLogSoftmax(const ir::Graph& graph, const ir::Operator& op,
                              const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  return lowerByRows(graph, op, functionName,
                     [&](lowering::FunctionBuilder& fb, const tir::Buffer& in,
                         const tir::Buffer& out, const RowLoop& r) {
                       return input.dtype == ir::DType::Float32
                                  ? logSoftmaxFloatRow(fb, in, out, r)
                                  : logSoftmaxInt8Row(
                                        fb, in, out, r,
                                        logSoftmaxInt8Params(input.quantization.scale()),
                                        input.elementCount() >= kSumTermTableMinElements);
                     });
}

const reference::Kernel kLogSoftmaxKernel{ir::OpType::LogSoftmax, checkLogSoftmax, evalLogSoftmax};

}  // namespace

extern const OperatorDefinition kLogSoftmaxDefinition{
    .type = ir::OpType::LogSoftmax,
    .dtypes = "float32, int8 (output scale 16/256, zero point 127)",
    .import = {.optionsType = optionsTypeOf<tflite::LogSoftmaxOptions>(), .maxVersion = 2},
    .shape = sameAsInput,
    .kernel = &kLogSoftmaxKernel,
    .lower = lowerLogSoftmax,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
