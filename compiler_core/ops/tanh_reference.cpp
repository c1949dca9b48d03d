// TANH: float32, int8 and int16 as TFLite Micro computes them. int8 rescales
// x - zero_point to Q4.27 and uses gemmlowp's fixed-point tanh; int16
// interpolates TFLite's sigmoid table through tanh(x) = 2 sigmoid(2x) - 1.
#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkTanh(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseUnary(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  if (input.dtype == DType::Float32) return std::nullopt;
  // TFLM checks nothing on the int8 output: it is computed for scale 1/128
  // and zero point 0, whatever the tensor says.
  return checkSigmoidFamily(op, input, graph.output(op, 0), tanhInt16Params);
}

void evalTanh(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, loupe_tanh_f32);
    return;
  }
  const float inputScale = input.quantization.scale();
  if (input.dtype == DType::Int16) {
    const SigmoidInt16Params params = tanhInt16Params(inputScale);
    mapElements<std::int16_t, std::int16_t>(op, store, count, [&](std::int16_t x) {
      return loupe_tanh_int16_lut(x, params.inputMultiplier, params.inputLeftShift);
    });
    return;
  }
  const SigmoidInt8Params params = sigmoidInt8Params(inputScale, input.quantization.zeroPoint());
  mapElements<std::int8_t, std::int8_t>(op, store, count, [&](std::int8_t x) {
    return static_cast<std::int8_t>(loupe_tanh_int8(x, params.inputZeroPoint,
                                                    params.inputRangeRadius, params.inputMultiplier,
                                                    params.inputLeftShift));
  });
}

}  // namespace

extern const Kernel kTanhKernel{ir::OpType::Tanh, checkTanh, evalTanh};

}  // namespace loupe::reference
