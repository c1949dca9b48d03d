// RELU6: float32, int8 and int16 as TFLite Micro computes them. The quantised
// paths clamp to the input's quantised 0 and 6 without requantising: TFLM
// assumes (and does not check) that the output has the input's quantisation.
#include <limits>

#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkRelu6(const ir::Graph& graph, const ir::Operator& op) {
  return checkElementwiseUnary(graph, op, QuantizedOperands::InputOnly);
}

template <typename T>
void relu6Quantized(const ir::Operator& op, TensorStore& store, std::int64_t count,
                    const ir::Tensor& input) {
  const Relu6Params p = relu6Params(input.quantization.scale(), input.quantization.zeroPoint(),
                                    std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  // TFLM keeps both bounds in variables of the tensor's type (a zero point
  // outside it wraps).
  const auto lower = static_cast<T>(p.zero);
  const auto upper = static_cast<T>(p.six);
  mapElements<T, T>(op, store, count,
                    [&](T x) { return static_cast<T>(loupe_relu6_quantized(x, lower, upper)); });
}

void evalRelu6(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, loupe_relu6_f32);
  } else if (input.dtype == DType::Int16) {
    relu6Quantized<std::int16_t>(op, store, count, input);
  } else {
    relu6Quantized<std::int8_t>(op, store, count, input);
  }
}

}  // namespace

extern const Kernel kRelu6Kernel{ir::OpType::Relu6, checkRelu6, evalRelu6};

}  // namespace loupe::reference
