// ELU: x for x >= 0, exp(x) - 1 below, as TFLite Micro computes it. float32
// calls Loupe's expm1f (loupe/loupe_libm.h) per element. int8 reads a 256-entry table
// that TFLM fills in Prepare: each input value dequantised in float, mapped
// through expf(x) - 1.0f (not expm1f), divided by the output scale through
// its float reciprocal, rounded half away from zero, plus the output zero
// point, clamped to int8. Loupe fills that table once, with the function
// below, for both the reference and the generated C (with the compiler's
// std::exp: the table is a compile-time constant no board recomputes).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "loupe/float_math.h"
#include "lowering/elementwise_unary.h"
#include "ops/operator_definition.h"
#include "reference/kernel_checks.h"
#include "reference/unary_kernel_support.h"

namespace loupe::ops {

namespace {

// Indexed by the input's bits read as uint8.
using EluTable = std::array<std::int8_t, 256>;

// float to int32 as Arm's conversion saturates, where C leaves an
// out-of-range value undefined (only absurd input/output scale ratios).
std::int32_t saturatingToInt32(float value) {
  if (!(value > -2147483648.0f))
    return std::isnan(value) ? 0 : std::numeric_limits<std::int32_t>::min();
  if (value >= 2147483648.0f) return std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(value);
}

// TFLM's PopulateLookupTable<int8_t> with ELU's transform.
EluTable eluTable(const ir::Tensor& input, const ir::Tensor& output) {
  const float inputScale = input.quantization.scale();
  const auto inputZeroPoint = static_cast<std::int32_t>(input.quantization.zeroPoint());
  const auto outputZeroPoint = static_cast<std::int32_t>(output.quantization.zeroPoint());
  const float inverseScale = 1 / output.quantization.scale();
  EluTable table{};
  for (std::int32_t value = -128; value <= 127; ++value) {
    const float dequantized = inputScale * static_cast<float>(value - inputZeroPoint);
    const float transformed = dequantized < 0.0f ? std::exp(dequantized) - 1.0f : dequantized;
    const float rescaled = std::round(transformed * inverseScale);
    const std::int32_t quantized =
        saturatingToInt32(rescaled + static_cast<float>(outputZeroPoint));
    table[static_cast<std::uint8_t>(value)] =
        static_cast<std::int8_t>(std::clamp(quantized, -128, 127));
  }
  return table;
}

std::optional<std::string> checkElu(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = reference::checkElementwiseUnary(
          graph, op, reference::QuantizedOperands::InputAndOutput,
          {{ir::DType::Float32, ir::DType::Float32}, {ir::DType::Int8, ir::DType::Int8}})) {
    return problem;
  }
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (output.shape != input.shape) {
    return "output " + tensorText(output) + " must have the input's shape";
  }
  return std::nullopt;
}

void evalElu(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == ir::DType::Float32) {
    reference::mapElements<float, float>(op, store, count,
                                         [](float x) { return x < 0.0f ? loupe_expm1f(x) : x; });
    return;
  }
  const EluTable table = eluTable(input, graph.output(op, 0));
  reference::mapElements<std::int8_t, std::int8_t>(
      op, store, count, [&](std::int8_t x) { return table[static_cast<std::uint8_t>(x)]; });
}

tir::PrimFunc lowerElu(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  lowering::UnaryElementFunction f;
  if (input.dtype == ir::DType::Int8) {
    f.atCompileTime = [table = eluTable(input, graph.output(op, 0))](std::int32_t x) {
      return static_cast<double>(table[static_cast<std::uint8_t>(x)]);
    };
  } else {
    f.perElement = [](const tir::Expr& x) {
      return tir::select(x < tir::floatImm(0.0),
                         tir::callIntrinsic("loupe.expm1f", tir::ScalarType::Float32, {x}), x);
    };
  }
  return lowering::lowerElementwiseUnary(graph, op, functionName, f);
}

const reference::Kernel kEluKernel{ir::OpType::Elu, checkElu, evalElu};

}  // namespace

extern const OperatorDefinition kEluDefinition{
    .type = ir::OpType::Elu,
    .dtypes = "float32, int8 (input and output same type)",
    .import = {.maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kEluKernel,
    .lower = lowerElu,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
