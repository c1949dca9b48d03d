// HARD_SWISH -> TIR, one flat loop over the elements: float32 calls
// loupe_hard_swish_f32 per element; int8 reads a 256-entry table of
// loupe_hard_swish_int8 (TFLM's 16-bit fixed-point arithmetic) computed at
// compile time.
#include "loupe/elementwise_unary.h"
#include "lowering/elementwise_unary.h"
#include "lowering/lowering_rule.h"
#include "reference/activation_params.h"

namespace loupe::lowering {

tir::PrimFunc lowerHardSwish(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype == ir::DType::Float32) {
    return lowerElementwiseUnary(graph, op, functionName,
                                 helperCall("loupe.hard_swish_f32", loupe_hard_swish_f32));
  }
  if (input.dtype != ir::DType::Int8) failTensorType(op, "input", input);
  const reference::HardSwishParams p =
      reference::hardSwishParams(input.quantization.scale(), input.quantization.zeroPoint(),
                                 output.quantization.scale(), output.quantization.zeroPoint());
  return lowerElementwiseUnary(
      graph, op, functionName,
      compileTimeCall(loupe_hard_swish_int8, p.inputZeroPoint, p.outputZeroPoint,
                      p.outputMultiplierFixedpointInt16, p.outputMultiplierExponent,
                      p.reluishMultiplierFixedpointInt16, p.reluishMultiplierExponent));
}

}  // namespace loupe::lowering
