// HARD_SWISH, x * relu6(x + 3) / 6: float32 and int8 as TFLite Micro computes
// them. The int8 path works in 16-bit fixed point: the input on a 2^-7 finer
// scale, a "reluish" factor in [0, 1] from x rescaled so that 3.0 is 32768,
// and their product rounded toward zero to cancel the rounding biases.
#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkHardSwish(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem =
          checkElementwiseUnary(graph, op, QuantizedOperands::InputAndOutput,
                                {{DType::Float32, DType::Float32}, {DType::Int8, DType::Int8}})) {
    return problem;
  }
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype == DType::Float32) return std::nullopt;
  const HardSwishParams params =
      hardSwishParams(input.quantization.scale(), input.quantization.zeroPoint(),
                      output.quantization.scale(), output.quantization.zeroPoint());
  if (params.outputMultiplierExponent > 0) {
    return "int8 HARD_SWISH needs input scale / 128 below the output scale (TFLM only shifts "
           "right); found input scale " +
           std::to_string(input.quantization.scale()) + " and output scale " +
           std::to_string(output.quantization.scale());
  }
  return std::nullopt;
}

void evalHardSwish(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, loupe_hard_swish_f32);
    return;
  }
  const HardSwishParams params =
      hardSwishParams(input.quantization.scale(), input.quantization.zeroPoint(),
                      output.quantization.scale(), output.quantization.zeroPoint());
  mapElements<std::int8_t, std::int8_t>(op, store, count, [&](std::int8_t x) {
    return static_cast<std::int8_t>(loupe_hard_swish_int8(
        x, params.inputZeroPoint, params.outputZeroPoint, params.outputMultiplierFixedpointInt16,
        params.outputMultiplierExponent, params.reluishMultiplierFixedpointInt16,
        params.reluishMultiplierExponent));
  });
}

}  // namespace

extern const Kernel kHardSwishKernel{ir::OpType::HardSwish, checkHardSwish, evalHardSwish};

}  // namespace loupe::reference
