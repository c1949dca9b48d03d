// RSQRT as TFLite Micro computes it. float32: 1.0f / sqrtf(x), through the
// same sqrtf wrapper on both sides (loupe/float_math.h). int8: for
// v = x - input zero point, v == 0 gives 127 (TFLM takes a value near 0 to
// mean the largest output, whatever the output zero point); otherwise
// 1/sqrt(v) comes from TFLite's fixed-point Newton-Raphson
// (GetInvSqrtQuantizedMultiplierExp) as a multiplier and shift, is applied
// to 1 with 20 extra bits, rescaled by 1 / (sqrt(input scale) * output
// scale) (the product in float, as TFLM) with those bits taken back, offset
// by the output zero point and clamped to int8. An int8 input below its
// zero point (a negative real value) makes TFLM's Invoke fail: the
// reference throws and the generated C returns an error status.
//
// TFLM's Prepare accepts float32 and int8 only; its Eval has an int16
// branch that Prepare never lets run, so int16 is refused here as well.
// int8 inputs lower to a 256-entry table of the reference's own function.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/fixed_point.h"
#include "loupe/fixed_point_math.h"
#include "loupe/float_math.h"
#include "lowering/elementwise_unary.h"
#include "ops/operator_definition.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

// The extra fraction bits TFLM carries between its two multiplications.
constexpr int kIntermediateBits = 20;

struct RsqrtParams {
  std::int32_t inputZeroPoint = 0, outputZeroPoint = 0;
  // 1 / (sqrt(input scale) * output scale).
  reference::QuantizedMultiplier rescale;
};

// TFLM's SetRsqrtOutputMultiplier: sqrt and product in float, the
// reciprocal in double.
double rescaleOf(const ir::Tensor& input, const ir::Tensor& output) {
  const float product = loupe_sqrtf(input.quantization.scale()) * output.quantization.scale();
  return 1.0 / static_cast<double>(product);
}

RsqrtParams rsqrtParams(const ir::Tensor& input, const ir::Tensor& output) {
  RsqrtParams p;
  p.inputZeroPoint = input.quantization.zeroPoint();
  p.outputZeroPoint = output.quantization.zeroPoint();
  p.rescale = reference::quantizeMultiplier(rescaleOf(input, output));
  return p;
}

// TFLite's GetInvSqrtQuantizedMultiplierExp with kReverseShift: 1/sqrt(value)
// as a Q0.31 multiplier and a left shift. Values up to 1 (0 included) give
// the largest multiplier. Otherwise the value is scaled by a power of 4 into
// [2^27, 2^29) and halved, which read as Q3.28 is a v in [1/4, 1); five
// Newton-Raphson steps x <- 1.5 x - (v/2) x^3 from x = 1 (gemmlowp's
// fixed-point products and saturating rescales) give 1/sqrt(v), which is
// multiplied by sqrt(2)/2.
reference::QuantizedMultiplier inverseSqrtMultiplier(std::int32_t value) {
  if (value <= 1) return {std::numeric_limits<std::int32_t>::max(), 0};
  int rightShift = 11;
  while (value >= (1 << 29)) {
    value /= 4;
    ++rightShift;
  }
  const int bitPairs =
      (loupe_count_leading_zeros_u32(static_cast<std::uint32_t>(value)) - 1) / 2 - 1;
  rightShift -= bitPairs;
  value <<= 2 * bitPairs;
  constexpr std::int32_t kOne = 1 << 28;                        // 1.0 in Q3.28
  constexpr std::int32_t kThreeHalves = (1 << 28) + (1 << 27);  // 1.5 in Q3.28
  constexpr std::int32_t kHalfSqrtTwo = 1518500250;             // sqrt(2)/2 in Q0.31
  const std::int32_t halfValue = loupe_rounding_divide_by_pot(value >> 1, 1);
  std::int32_t x = kOne;
  for (int step = 0; step < 5; ++step) {
    // Q3 * Q3 is Q6 and Q6 * Q3 is Q9; the saturating shifts return to Q3.
    const std::int32_t cube = loupe_saturating_rounding_multiply_by_pot(
        loupe_saturating_rounding_doubling_high_mul(
            loupe_saturating_rounding_doubling_high_mul(x, x), x),
        6);
    x = loupe_saturating_rounding_multiply_by_pot(
        loupe_wrapping_sub_i32(loupe_saturating_rounding_doubling_high_mul(kThreeHalves, x),
                               loupe_saturating_rounding_doubling_high_mul(halfValue, cube)),
        3);
  }
  std::int32_t multiplier = loupe_saturating_rounding_doubling_high_mul(x, kHalfSqrtTwo);
  if (rightShift < 0) {
    multiplier = static_cast<std::int32_t>(static_cast<std::uint32_t>(multiplier) << -rightShift);
    rightShift = 0;
  }
  return {multiplier, -rightShift};
}

// One int8 output for input x >= the input zero point.
std::int32_t rsqrtQuantized(std::int32_t x, const RsqrtParams& p) {
  const std::int32_t value = x - p.inputZeroPoint;
  if (value == 0) return std::numeric_limits<std::int8_t>::max();
  const reference::QuantizedMultiplier inverse = inverseSqrtMultiplier(value);
  const std::int32_t scaled = loupe_multiply_by_quantized_multiplier(
      1, inverse.multiplier, inverse.shift + kIntermediateBits);
  const std::int32_t output =
      loupe_multiply_by_quantized_multiplier(scaled, p.rescale.multiplier,
                                             p.rescale.shift - kIntermediateBits) +
      p.outputZeroPoint;
  return std::clamp<std::int32_t>(output, std::numeric_limits<std::int8_t>::min(),
                                  std::numeric_limits<std::int8_t>::max());
}

std::optional<std::string> checkRsqrt(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  if (input->dtype != ir::DType::Float32 && input->dtype != ir::DType::Int8) {
    return "input dtype " + reference::describeDtype(input->dtype) +
           " is not supported (expected float32 or int8, the types TFLite Micro's RSQRT "
           "prepares)";
  }
  const ir::Tensor& output = graph.output(op, 0);
  if (output.dtype != input->dtype || output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's type and shape";
  }
  if (input->dtype == ir::DType::Int8) {
    if (auto problem = reference::checkPerTensorQuantization("input", *input)) return problem;
    if (auto problem = reference::checkPerTensorQuantization("output", output)) return problem;
    if (!std::isfinite(rescaleOf(*input, output))) {
      return "input and output scales are too small: 1 / (sqrt(input scale) * output scale) "
             "is not finite";
    }
  }
  return std::nullopt;
}

void evalRsqrt(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == ir::DType::Float32) {
    const float* in = store.data<float>(op.inputs[0]);
    float* out = store.mutableData<float>(op.outputs[0]);
    for (std::int64_t i = 0; i < count; ++i) out[i] = 1.0f / loupe_sqrtf(in[i]);
    return;
  }
  const RsqrtParams p = rsqrtParams(input, graph.output(op, 0));
  const auto* in = store.data<std::int8_t>(op.inputs[0]);
  auto* out = store.mutableData<std::int8_t>(op.outputs[0]);
  for (std::int64_t i = 0; i < count; ++i) {
    if (in[i] < p.inputZeroPoint) {
      throw std::out_of_range("#" + std::to_string(op.index) + " RSQRT: input value " +
                              std::to_string(in[i]) + " is below the input zero point " +
                              std::to_string(p.inputZeroPoint) +
                              " (RSQRT is only defined for non-negative values)");
    }
    out[i] = static_cast<std::int8_t>(rsqrtQuantized(in[i], p));
  }
}

// int8: for each element, the status of x >= input zero point (only when
// some int8 value lies below it), then the table entry of x. TFLM checks
// and writes element by element in the same order. This is the table loop
// of lowering::lowerElementwiseUnary plus the check, which that loop has no
// place for. Table entries below the zero point are never read.
tir::PrimFunc lowerRsqrtInt8(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const RsqrtParams p = rsqrtParams(input, graph.output(op, 0));
  const std::int64_t count = input.elementCount();
  if (count > std::numeric_limits<std::int32_t>::max()) {
    lowering::fail(
        op, std::to_string(count) + " elements do not fit the generated int32_t loop counter");
  }
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  if (count == 0) return fb.finish(tir::seq({}));
  // Indexed by the input's bits read as uint8.
  std::vector<std::int8_t> values(256, 0);
  for (int bits = 0; bits < 256; ++bits) {
    const std::int32_t x = static_cast<std::int8_t>(bits);
    if (x >= p.inputZeroPoint) {
      values[static_cast<std::size_t>(bits)] = static_cast<std::int8_t>(rsqrtQuantized(x, p));
    }
  }
  const tir::Buffer table = fb.constant("output_table", tir::ScalarType::Int8, values);
  const tir::Var i = lowering::loopVar("i");
  const tir::Expr x = tir::load(in, tir::refVar(i));
  tir::Stmt body =
      tir::store(out, tir::refVar(i), tir::load(table, tir::cast(tir::ScalarType::UInt8, x)));
  if (p.inputZeroPoint > std::numeric_limits<std::int8_t>::min()) {
    // x - zero point in [0, 128 - zero point) exactly when x >= zero point.
    const tir::Expr status =
        tir::callIntrinsic("loupe.check_index", tir::ScalarType::Int32,
                           {tir::cast(tir::ScalarType::Int32, x) - tir::intImm(p.inputZeroPoint),
                            tir::intImm(std::int64_t{std::numeric_limits<std::int8_t>::max()} + 1 -
                                        p.inputZeroPoint)});
    body = tir::seq({tir::evaluateChecked(status), body});
  }
  return fb.finish(tir::forLoop(i, tir::intImm(0), tir::intImm(count), body));
}

tir::PrimFunc lowerRsqrt(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  if (graph.input(op, 0)->dtype == ir::DType::Int8) return lowerRsqrtInt8(graph, op, functionName);
  lowering::UnaryElementFunction f;
  f.perElement = [](const tir::Expr& x) {
    return tir::floatImm(1.0) / tir::callIntrinsic("loupe.sqrtf", tir::ScalarType::Float32, {x});
  };
  return lowering::lowerElementwiseUnary(graph, op, functionName, f);
}

const reference::Kernel kRsqrtKernel{ir::OpType::Rsqrt, checkRsqrt, evalRsqrt};

}  // namespace

extern const OperatorDefinition kRsqrtDefinition{
    .type = ir::OpType::Rsqrt,
    .dtypes = "float32; int8 quantised",
    .import = {.maxVersion = 3},
    .shape = sameAsInput,
    .kernel = &kRsqrtKernel,
    .lower = lowerRsqrt,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
