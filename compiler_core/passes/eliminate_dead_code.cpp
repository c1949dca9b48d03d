#include "passes/eliminate_dead_code.h"

#include <algorithm>

#include "passes/graph_rewrite.h"

namespace loupe::passes {

namespace {

// Whether running the operator matters beyond its outputs.
bool hasSideEffects(const ir::Graph& graph, const ir::Operator& op) {
  if (op.type == ir::OpType::Opaque) return true;
  return std::any_of(op.inputs.begin(), op.inputs.end(), [&](int index) {
    return index != ir::kNoTensor && graph.tensor(index).isVariable;
  });
}

}  // namespace

ir::Graph eliminateDeadCode(ir::Graph graph, PassContext& context) {
  for (bool changed = true; changed;) {
    changed = false;
    const auto uses = tensorUses(graph);
    std::vector<bool> dead(graph.operators.size(), false);
    for (std::size_t position = 0; position < graph.operators.size(); ++position) {
      const ir::Operator& op = graph.operators[position];
      const bool outputsUnused = std::all_of(op.outputs.begin(), op.outputs.end(), [&](int index) {
        return uses.at(static_cast<std::size_t>(index)).empty() && !isGraphOutput(graph, index);
      });
      if (outputsUnused && !hasSideEffects(graph, op)) {
        dead[position] = true;
        changed = true;
        context.remark(operatorLabel(op) + " removed: nothing reads its outputs");
      }
    }
    if (changed) removeOperators(graph, dead);
  }

  const auto referenced = referencedTensors(graph);
  std::string dropped;
  for (auto& tensor : graph.tensors) {
    if (!tensor.isConstant || referenced.at(static_cast<std::size_t>(tensor.index))) continue;
    tensor.isConstant = false;
    tensor.data.clear();
    dropped += (dropped.empty() ? "%" : ", %") + std::to_string(tensor.index);
  }
  if (!dropped.empty()) context.remark("unread constants dropped: " + dropped);
  return graph;
}

}  // namespace loupe::passes
