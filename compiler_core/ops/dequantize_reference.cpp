// DEQUANTIZE: int8, int16 and uint8 to float32, scale * (q - zero_point) in
// float as TFLite Micro computes it (per-tensor quantisation only).
#include "loupe/elementwise_unary.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkDequantize(const ir::Graph& graph, const ir::Operator& op) {
  return checkElementwiseUnary(graph, op, QuantizedOperands::InputOnly,
                               {{DType::Int8, DType::Float32},
                                {DType::Int16, DType::Float32},
                                {DType::UInt8, DType::Float32}});
}

template <typename In>
void dequantize(const ir::Operator& op, TensorStore& store, std::int64_t count, float scale,
                std::int32_t zeroPoint) {
  mapElements<In, float>(op, store, count,
                         [&](In q) { return loupe_dequantize(q, scale, zeroPoint); });
}

void evalDequantize(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  const float scale = input.quantization.scale();
  const std::int32_t zeroPoint = input.quantization.zeroPoint();
  switch (input.dtype) {
    case DType::Int16:
      return dequantize<std::int16_t>(op, store, count, scale, zeroPoint);
    case DType::UInt8:
      return dequantize<std::uint8_t>(op, store, count, scale, zeroPoint);
    default:
      return dequantize<std::int8_t>(op, store, count, scale, zeroPoint);
  }
}

}  // namespace

extern const Kernel kDequantizeKernel{ir::OpType::Dequantize, checkDequantize, evalDequantize};

}  // namespace loupe::reference
