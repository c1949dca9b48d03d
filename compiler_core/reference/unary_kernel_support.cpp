#include "reference/unary_kernel_support.h"

namespace loupe::reference {

std::optional<std::string> checkUnaryOperands(const ir::Graph& graph, const ir::Operator& op) {
  const std::string name = op.typeName();
  if (op.inputs.size() != 1) {
    return name + " takes 1 input, found " + std::to_string(op.inputs.size());
  }
  if (op.outputs.size() != 1) {
    return name + " has 1 output, found " + std::to_string(op.outputs.size());
  }
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return name + " needs an input tensor, found none";
  const ir::Tensor& output = graph.output(op, 0);
  if (input->elementCount() != output.elementCount()) {
    return describeTensor("input", *input) + " has " + std::to_string(input->elementCount()) +
           " elements but " + describeTensor("output", output) + " has " +
           std::to_string(output.elementCount()) + "; expected the same number";
  }
  return std::nullopt;
}

std::optional<std::string> checkDTypePair(const ir::Operator& op, const ir::Tensor& input,
                                          const ir::Tensor& output,
                                          std::initializer_list<DTypePair> supported) {
  for (const auto& [in, out] : supported) {
    if (input.dtype == in && output.dtype == out) return std::nullopt;
  }
  std::string text = op.typeName() + " does not support " + describeDtype(input.dtype) +
                     " input with " + describeDtype(output.dtype) + " output; expected one of";
  bool first = true;
  for (const auto& [in, out] : supported) {
    text += first ? " " : ", ";
    text += describeDtype(in) + " -> " + describeDtype(out);
    first = false;
  }
  return text;
}

std::optional<std::string> checkElementwiseUnary(const ir::Graph& graph, const ir::Operator& op,
                                                 QuantizedOperands quantized,
                                                 std::initializer_list<DTypePair> supported) {
  if (auto problem = checkUnaryOperands(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = checkDTypePair(op, input, output, supported)) return problem;
  if (input.dtype == ir::DType::Float32) return std::nullopt;
  if (auto problem = checkPerTensorQuantization("input", input)) return problem;
  if (quantized == QuantizedOperands::InputOnly) return std::nullopt;
  return checkPerTensorQuantization("output", output);
}

std::optional<std::string> checkSigmoidFamily(const ir::Operator& op, const ir::Tensor& input,
                                              const ir::Tensor& output,
                                              SigmoidInt16Params (*int16Params)(float)) {
  const float inputScale = input.quantization.scale();
  if (input.dtype == ir::DType::Int8) {
    if (sigmoidInt8Params(inputScale, input.quantization.zeroPoint()).inputLeftShift < 0) {
      return describeTensor("input", input) + " scale " + std::to_string(inputScale) +
             " is too small for TFLM's Q4.27 rescaling (expected at least 2^-28)";
    }
    return std::nullopt;
  }
  const std::string symmetric = "TFLM's int16 " + op.typeName() + " is symmetric";
  if (auto problem = checkZeroPoint("input", input, 0, symmetric)) return problem;
  if (auto problem = checkZeroPoint("output", output, 0, symmetric)) return problem;
  int outputLog2 = 0;
  if (!checkedLog2(output.quantization.scale(), &outputLog2) || outputLog2 != -15) {
    return describeTensor("output", output) + " must have scale 2^-15, found " +
           std::to_string(output.quantization.scale());
  }
  if (int16Params(inputScale).inputMultiplier > 32767) {
    return describeTensor("input", input) + " scale " + std::to_string(inputScale) +
           " is too large for TFLM's table lookup (expected at most 32767 / 12288)";
  }
  return std::nullopt;
}

}  // namespace loupe::reference
