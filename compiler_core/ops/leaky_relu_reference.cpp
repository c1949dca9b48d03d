// LEAKY_RELU, x for x >= 0 and alpha * x below: float32, int8 and int16 as
// TFLite Micro computes them (two requantisation multipliers, one per side).
#include <limits>

#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkLeakyRelu(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkUnaryOperands(graph, op)) return problem;
  if (std::get_if<ir::LeakyReluAttrs>(&op.attributes) == nullptr) {
    return std::string("LEAKY_RELU has no leaky-relu attributes (alpha)");
  }
  return checkElementwiseUnary(graph, op);
}

template <typename T>
void leakyReluQuantized(const ir::Operator& op, TensorStore& store, std::int64_t count,
                        const LeakyReluParams& p) {
  mapElements<T, T>(op, store, count, [&](T x) {
    return static_cast<T>(
        loupe_leaky_relu_quantized(x, p.inputZeroPoint, p.outputZeroPoint, p.identity.multiplier,
                                   p.identity.shift, p.alpha.multiplier, p.alpha.shift,
                                   std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
  });
}

void evalLeakyRelu(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const float alpha = std::get<ir::LeakyReluAttrs>(op.attributes).alpha;
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count,
                              [&](float x) { return loupe_leaky_relu_f32(x, alpha); });
    return;
  }
  const LeakyReluParams params =
      leakyReluParams(input.quantization.scale(), input.quantization.zeroPoint(),
                      output.quantization.scale(), output.quantization.zeroPoint(), alpha);
  if (input.dtype == DType::Int16) {
    leakyReluQuantized<std::int16_t>(op, store, count, params);
  } else {
    leakyReluQuantized<std::int8_t>(op, store, count, params);
  }
}

}  // namespace

extern const Kernel kLeakyReluKernel{ir::OpType::LeakyRelu, checkLeakyRelu, evalLeakyRelu};

}  // namespace loupe::reference
