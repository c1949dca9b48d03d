#include "ir/graph.h"

namespace loupe::ir {

std::string Operator::typeName() const {
  if (type == OpType::Opaque) {
    if (const auto* opaque = std::get_if<OpaqueAttrs>(&attributes)) {
      if (!opaque->customCode.empty()) return "CUSTOM(" + opaque->customCode + ")";
      return "BUILTIN(" + std::to_string(opaque->builtinCode) + ")";
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

}  // namespace loupe::ir
