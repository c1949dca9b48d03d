// QUANTIZE and DEQUANTIZE -> TIR, one flat loop over the elements:
//   float32 -> int8/int16       loupe_quantize_f32 per element;
//   integer -> integer          loupe_requantize per element for int16 and
//                               int32 inputs, a 256-entry table of it for
//                               int8 and uint8 inputs;
//   int8/uint8/int16 -> float32 loupe_dequantize, tabled for 8-bit inputs.
// Scales and zero points are per tensor (the reference kernels' checks).
#include "loupe/elementwise_unary.h"
#include "lowering/elementwise_unary.h"
#include "lowering/lowering_rule.h"
#include "reference/activation_params.h"

namespace loupe::lowering {

tir::PrimFunc lowerQuantize(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const reference::IntRange type = integerTypeRange(op, "output", output);
  const float outputScale = output.quantization.scale();
  const std::int32_t outputZeroPoint = output.quantization.zeroPoint();
  if (input.dtype == ir::DType::Float32) {
    return lowerElementwiseUnary(graph, op, functionName,
                                 helperCall("loupe.quantize_f32", loupe_quantize_f32, outputScale,
                                            outputZeroPoint, type.min, type.max));
  }
  const reference::RequantizeParams p = reference::requantizeParams(
      input.quantization.scale(), input.quantization.zeroPoint(), outputScale, outputZeroPoint);
  return lowerElementwiseUnary(
      graph, op, functionName,
      helperCall("loupe.requantize", loupe_requantize, p.inputZeroPoint, p.requantize.multiplier,
                 p.requantize.shift, p.outputZeroPoint, type.min, type.max));
}

tir::PrimFunc lowerDequantize(const ir::Graph& graph, const ir::Operator& op,
                              const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  return lowerElementwiseUnary(
      graph, op, functionName,
      helperCall("loupe.dequantize", loupe_dequantize, input.quantization.scale(),
                 input.quantization.zeroPoint()));
}

}  // namespace loupe::lowering
