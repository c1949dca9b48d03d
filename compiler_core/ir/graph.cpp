#include "ir/graph.h"

#include "ir/tflite_builtin_names.h"

namespace loupe::ir {

std::string Operator::typeName() const {
  if (type == OpType::Opaque) {
    if (const auto* opaque = std::get_if<OpaqueAttrs>(&attributes)) {
      if (!opaque->customCode.empty()) return "CUSTOM(" + opaque->customCode + ")";
      // The builtin's TFLite name ("RESIZE_BILINEAR"), never a bare code.
      return tfliteBuiltinName(opaque->builtinCode);
    }
  }
  return std::string(opTypeName(type));
}

std::vector<int> Operator::modelOperators() const {
  return sourceOperators.empty() ? std::vector<int>{index} : sourceOperators;
}

const Tensor* Graph::input(const Operator& op, std::size_t slot) const {
  if (slot >= op.inputs.size() || op.inputs[slot] == kNoTensor) return nullptr;
  return &tensor(op.inputs[slot]);
}

const Tensor& Graph::output(const Operator& op, std::size_t slot) const {
  return tensor(op.outputs.at(slot));
}

bool isNoCopyView(const Graph& graph, const Operator& op) {
  if (op.type != OpType::Reshape && op.type != OpType::Squeeze && op.type != OpType::ExpandDims) {
    return false;
  }
  const Tensor* input = graph.input(op, 0);
  if (input == nullptr || op.outputs.size() != 1) return false;
  const Tensor& output = graph.output(op, 0);
  return !input->isConstant && !input->isVariable && !output.isVariable &&
         input->dtype == output.dtype && input->quantization == output.quantization &&
         input->elementCount() == output.elementCount();
}

std::string regionName(const Graph& graph, const Operator& op) {
  const int region = op.placement.region;
  if (region < 0 || static_cast<std::size_t>(region) >= graph.externalFunctions.size()) return "";
  return graph.externalFunctions[static_cast<std::size_t>(region)].name;
}

}  // namespace loupe::ir
