#include "reference/unary_kernel_support.h"

#include <cmath>

namespace loupe::reference {

std::string describeTensor(std::string_view role, const ir::Tensor& tensor) {
  std::string text(role);
  if (!tensor.name.empty()) text += " '" + tensor.name + "'";
  return text;
}

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
  std::string text = op.typeName() + " does not support " + std::string(dtypeName(input.dtype)) +
                     " input with " + std::string(dtypeName(output.dtype)) +
                     " output; expected one of";
  bool first = true;
  for (const auto& [in, out] : supported) {
    text += first ? " " : ", ";
    text += std::string(dtypeName(in)) + " -> " + std::string(dtypeName(out));
    first = false;
  }
  return text;
}

std::optional<std::string> checkPerTensorQuantization(std::string_view role,
                                                      const ir::Tensor& tensor) {
  const auto& quant = tensor.quantization;
  const std::string what =
      std::string(dtypeName(tensor.dtype)) + " " + describeTensor(role, tensor);
  if (!quant.isQuantized()) {
    return what + " has no quantisation parameters; expected a scale and a zero point";
  }
  if (quant.isPerChannel() || quant.zeroPoints.size() > 1) {
    return what + " is quantised per channel (" + std::to_string(quant.scales.size()) +
           " scales); expected one scale and zero point for the whole tensor";
  }
  const float scale = quant.scale();
  if (!(scale > 0.0f) || !std::isfinite(scale)) {
    return what + " has scale " + std::to_string(scale) + "; expected a positive finite scale";
  }
  return std::nullopt;
}

std::optional<std::string> checkZeroPoint(std::string_view role, const ir::Tensor& tensor,
                                          std::int32_t expected, std::string_view why) {
  const std::int32_t found = tensor.quantization.zeroPoint();
  if (found == expected) return std::nullopt;
  return std::string(dtypeName(tensor.dtype)) + " " + describeTensor(role, tensor) +
         " must have zero point " + std::to_string(expected) + " (" + std::string(why) +
         "), found " + std::to_string(found);
}

bool isQuantizedIntegerType(ir::DType type) {
  return type == ir::DType::Int8 || type == ir::DType::UInt8 || type == ir::DType::Int16 ||
         type == ir::DType::Int32;
}

}  // namespace loupe::reference
