// HARD_SWISH, x * relu6(x + 3) / 6: float32 and int8 as TFLite Micro computes
// them. The int8 path works in 16-bit fixed point: the input on a 2^-7 finer
// scale, a "reluish" factor in [0, 1] from x rescaled so that 3.0 is 32768,
// and their product rounded toward zero to cancel the rounding biases.
#include <algorithm>

#include "loupe/fixed_point_math.h"
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

float hardSwishFloat(float x) {
  return x * std::min(6.0f, std::max(0.0f, x + 3)) / 6;
}

std::int8_t hardSwishInt8(std::int8_t x, const HardSwishParams& p) {
  const auto inputValue = static_cast<std::int16_t>(x - p.inputZeroPoint);
  // As many significant bits as int16 holds for an int8 difference.
  const auto hiresInput = static_cast<std::int16_t>(inputValue * (1 << 7));
  const std::int16_t preshiftOutputScale = loupe_saturating_rounding_doubling_high_mul_i16(
      hiresInput, p.outputMultiplierFixedpointInt16);
  // x on the scale where 3.0 is 32768, saturating: the relu6(x + 3) / 6 factor
  // before the shift to [0, 1]. Left shifts happen in two steps so that any
  // saturation is decided by the last bit only.
  std::int16_t reluish = hiresInput;
  if (p.reluishMultiplierExponent > 0) {
    reluish = loupe_saturating_left_shift_i16(reluish, p.reluishMultiplierExponent - 1);
  }
  reluish =
      loupe_saturating_rounding_doubling_high_mul_i16(reluish, p.reluishMultiplierFixedpointInt16);
  if (p.reluishMultiplierExponent > 0) {
    reluish = loupe_saturating_left_shift_i16(reluish, 1);
  }
  if (p.reluishMultiplierExponent < 0) {
    reluish = loupe_rounding_divide_by_pot_i16(reluish, -p.reluishMultiplierExponent);
  }
  // [-1, 1] to [0, 1].
  reluish = static_cast<std::int16_t>((reluish + (1 << 15)) >> 1);
  const std::int16_t preshiftOutput =
      loupe_saturating_doubling_high_mul_i16(reluish, preshiftOutputScale);
  auto output = loupe_rounding_divide_by_pot_i16(preshiftOutput, -p.outputMultiplierExponent);
  output = static_cast<std::int16_t>(output + p.outputZeroPoint);
  return static_cast<std::int8_t>(std::clamp<std::int16_t>(output, -128, 127));
}

void evalHardSwish(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == DType::Float32) {
    mapElements<float, float>(op, store, count, hardSwishFloat);
    return;
  }
  const HardSwishParams params =
      hardSwishParams(input.quantization.scale(), input.quantization.zeroPoint(),
                      output.quantization.scale(), output.quantization.zeroPoint());
  mapElements<std::int8_t, std::int8_t>(op, store, count,
                                        [&](std::int8_t x) { return hardSwishInt8(x, params); });
}

}  // namespace

extern const Kernel kHardSwishKernel{ir::OpType::HardSwish, checkHardSwish, evalHardSwish};

}  // namespace loupe::reference
