// LOGISTIC (sigmoid): float32, int8 and int16 as TFLite Micro computes them.
// int8 rescales x - zero_point to Q4.27 and uses gemmlowp's fixed-point
// logistic; int16 interpolates TFLite's 256-entry sigmoid table.
#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkLogistic(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkElementwiseUnary(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype == DType::Float32) return std::nullopt;
  if (input.dtype == DType::Int8) {
    // TFLM checks only the zero point; the output is computed for scale 1/256.
    if (auto problem = checkZeroPoint("output", output, -128,
                                      "TFLM maps LOGISTIC's [0, 1) onto int8's full range")) {
      return problem;
    }
  }
  return checkSigmoidFamily(op, input, output, logisticInt16Params);
}

void evalLogistic(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, loupe_logistic_f32);
    return;
  }
  const float inputScale = input.quantization.scale();
  if (input.dtype == DType::Int16) {
    const SigmoidInt16Params params = logisticInt16Params(inputScale);
    mapElements<std::int16_t, std::int16_t>(op, store, count, [&](std::int16_t x) {
      return loupe_logistic_int16_lut(x, params.inputMultiplier, params.inputLeftShift);
    });
    return;
  }
  const SigmoidInt8Params params = sigmoidInt8Params(inputScale, input.quantization.zeroPoint());
  mapElements<std::int8_t, std::int8_t>(op, store, count, [&](std::int8_t x) {
    return static_cast<std::int8_t>(
        loupe_logistic_int8(x, params.inputZeroPoint, params.inputRangeRadius,
                            params.inputMultiplier, params.inputLeftShift));
  });
}

}  // namespace

extern const Kernel kLogisticKernel{ir::OpType::Logistic, checkLogistic, evalLogistic};

}  // namespace loupe::reference
