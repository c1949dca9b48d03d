// RELU: float32, int8 and int16 as TFLite Micro computes them. The quantised
// paths requantise from the input to the output scale, then clamp at the
// output's zero (its zero point).
#include <limits>

#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkRelu(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseUnary(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  if (input.dtype == DType::Int16) {
    if (auto problem = checkZeroPoint("input", input, 0, "TFLM's int16 RELU is symmetric")) {
      return problem;
    }
    return checkZeroPoint("output", graph.output(op, 0), 0, "TFLM's int16 RELU is symmetric");
  }
  return std::nullopt;
}

template <typename T>
void reluQuantized(const ir::Operator& op, TensorStore& store, std::int64_t count,
                   const ir::Tensor& input, const ir::Tensor& output) {
  const ReluParams p = reluParams(input.quantization.scale(), input.quantization.zeroPoint(),
                                  output.quantization.scale(), output.quantization.zeroPoint(),
                                  std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  mapElements<T, T>(op, store, count, [&](T x) {
    return static_cast<T>(loupe_relu_quantized(x, p.inputZeroPoint, p.requantize.multiplier,
                                               p.requantize.shift, p.outputZeroPoint,
                                               p.quantizedMin, p.quantizedMax));
  });
}

void evalRelu(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, loupe_relu_f32);
  } else if (input.dtype == DType::Int16) {
    reluQuantized<std::int16_t>(op, store, count, input, output);
  } else {
    reluQuantized<std::int8_t>(op, store, count, input, output);
  }
}

}  // namespace

extern const Kernel kReluKernel{ir::OpType::Relu, checkRelu, evalRelu};

}  // namespace loupe::reference
