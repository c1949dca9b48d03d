// RELU, RELU6 and LEAKY_RELU -> TIR, one flat loop over the elements: float32
// and int16 call the helper of loupe/elementwise_unary.h per element, int8
// reads a 256-entry table of the same helper computed at compile time. The
// quantised parameters are the reference's (activation_params.h).
#include "loupe/elementwise_unary.h"
#include "lowering/elementwise_unary.h"
#include "lowering/lowering_rule.h"
#include "reference/activation_params.h"

namespace loupe::lowering {

namespace {

bool isQuantizedActivation(ir::DType type) {
  return type == ir::DType::Int8 || type == ir::DType::Int16;
}

}  // namespace

tir::PrimFunc lowerRelu(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype == ir::DType::Float32) {
    return lowerElementwiseUnary(graph, op, functionName,
                                 helperCall("loupe.relu_f32", loupe_relu_f32));
  }
  if (!isQuantizedActivation(input.dtype)) failTensorType(op, "input", input);
  const reference::IntRange type = integerTypeRange(op, "output", output);
  const reference::ReluParams p = reference::reluParams(
      input.quantization.scale(), input.quantization.zeroPoint(), output.quantization.scale(),
      output.quantization.zeroPoint(), type.min, type.max);
  return lowerElementwiseUnary(
      graph, op, functionName,
      helperCall("loupe.relu_quantized", loupe_relu_quantized, p.inputZeroPoint,
                 p.requantize.multiplier, p.requantize.shift, p.outputZeroPoint, p.quantizedMin,
                 p.quantizedMax));
}

tir::PrimFunc lowerRelu6(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  if (input.dtype == ir::DType::Float32) {
    return lowerElementwiseUnary(graph, op, functionName,
                                 helperCall("loupe.relu6_f32", loupe_relu6_f32));
  }
  if (!isQuantizedActivation(input.dtype)) failTensorType(op, "input", input);
  const reference::IntRange type = integerTypeRange(op, "input", input);
  const reference::Relu6Params p = reference::relu6Params(
      input.quantization.scale(), input.quantization.zeroPoint(), type.min, type.max);
  // TFLM keeps both bounds in variables of the tensor's type (a zero point
  // outside it wraps), as the reference kernel does.
  const bool int8 = input.dtype == ir::DType::Int8;
  const std::int32_t zero =
      int8 ? static_cast<std::int8_t>(p.zero) : static_cast<std::int16_t>(p.zero);
  const std::int32_t six =
      int8 ? static_cast<std::int8_t>(p.six) : static_cast<std::int16_t>(p.six);
  return lowerElementwiseUnary(
      graph, op, functionName,
      helperCall("loupe.relu6_quantized", loupe_relu6_quantized, zero, six));
}

tir::PrimFunc lowerLeakyRelu(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const float alpha = std::get<ir::LeakyReluAttrs>(op.attributes).alpha;
  if (input.dtype == ir::DType::Float32) {
    return lowerElementwiseUnary(graph, op, functionName,
                                 helperCall("loupe.leaky_relu_f32", loupe_leaky_relu_f32,
                                            finiteParameter(op, "alpha", alpha)));
  }
  if (!isQuantizedActivation(input.dtype)) failTensorType(op, "input", input);
  const reference::IntRange type = integerTypeRange(op, "output", output);
  const reference::LeakyReluParams p = reference::leakyReluParams(
      input.quantization.scale(), input.quantization.zeroPoint(), output.quantization.scale(),
      output.quantization.zeroPoint(), alpha);
  return lowerElementwiseUnary(
      graph, op, functionName,
      helperCall("loupe.leaky_relu_quantized", loupe_leaky_relu_quantized, p.inputZeroPoint,
                 p.outputZeroPoint, p.identity.multiplier, p.identity.shift, p.alpha.multiplier,
                 p.alpha.shift, type.min, type.max));
}

}  // namespace loupe::lowering
