// LOGISTIC (sigmoid): float32, int8 and int16 as TFLite Micro computes them.
// int8 rescales x - zero_point to Q4.27 and uses gemmlowp's fixed-point
// logistic; int16 interpolates TFLite's 256-entry sigmoid table.
#include <cmath>

#include "loupe/fixed_point_math.h"
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

float logisticFloat(float x) {
  // TFLite's cut-offs: 1 above, exp(x) below, where 1/(1+exp(-x)) rounds so.
  const float cutoffUpper = 16.619047164916992188f;
  const float cutoffLower = -9.f;
  if (x > cutoffUpper) return 1.0f;
  if (x < cutoffLower) return std::exp(x);
  return 1.f / (1.f + std::exp(-x));
}

void evalLogistic(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, logisticFloat);
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
  // Output: 1/256 steps, offset by the zero point -128.
  mapElements<std::int8_t, std::int8_t>(op, store, count, [&](std::int8_t x) {
    return evalSigmoidFamilyInt8(x, params, loupe_logistic_q31, 8, -128);
  });
}

}  // namespace

extern const Kernel kLogisticKernel{ir::OpType::Logistic, checkLogistic, evalLogistic};

}  // namespace loupe::reference
