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

bool isQuantizedIntegerType(ir::DType type) {
  return type == ir::DType::Int8 || type == ir::DType::UInt8 || type == ir::DType::Int16 ||
         type == ir::DType::Int32;
}

}  // namespace loupe::reference
