// MUL with broadcasting. Follows TFLite Micro:
//   float32  a * b, then the fused activation's clamp;
//   int32    a * b (unquantised), clamped to the fused activation's range;
//   int8     (a - za) * (b - zb) in int32, one multiplier for
//            scale_a * scale_b / scale_out, output zero point, clamp;
//   int16    the same arithmetic; TFLite Micro requires zero points of 0.
#include <cstdint>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "ops/elementwise_binary_common.h"
#include "reference/kernel.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkMul(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseBinary(
          graph, op, {ir::DType::Float32, ir::DType::Int8, ir::DType::Int16, ir::DType::Int32})) {
    return problem;
  }
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input1.dtype == ir::DType::Int8 || input1.dtype == ir::DType::Int16) {
    if (auto problem = checkBinaryQuantization(graph, op)) return problem;
  }
  if (input1.dtype == ir::DType::Int16) {
    for (const auto& [role, t] :
         {std::pair{"input1", &input1}, {"input2", &input2}, {"output", &output}}) {
      if (auto problem = checkZeroPoint(role, *t, 0, "TFLM's int16 MUL needs zero points of 0")) {
        return problem;
      }
    }
  }
  return std::nullopt;
}

void evalMul(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attributes);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  switch (output.dtype) {
    case ir::DType::Float32:
      evalFloatBinary(graph, op, store, attrs.activation, [](float a, float b) { return a * b; });
      break;
    case ir::DType::Int32: {
      const IntRange range = int32ActivationRange(attrs.activation);
      evalBinaryBroadcast<std::int32_t>(graph, op, store, [&](std::int32_t a, std::int32_t b) {
        // The low 32 bits of the product, as TFLite's int32 multiplication.
        const auto product = static_cast<std::int32_t>(static_cast<std::int64_t>(a) * b);
        return loupe_clamp_i32(product, range.min, range.max);
      });
      break;
    }
    default:
      evalQuantizedBinary(graph, op, store, mulParams(input1, input2, output, attrs.activation),
                          loupe_mul_element);
      break;
  }
}

}  // namespace

extern const Kernel kMulKernel{ir::OpType::Mul, checkMul, evalMul};

}  // namespace loupe::reference
