#include "analysis/operator_cost.h"

#include <vector>

#include "ops/operator_registry.h"

namespace loupe::analysis {

namespace {

std::int64_t macsOf(const ir::Graph& graph, const ir::Operator& op) {
  const ops::MacsRule rule = ops::definitionOf(op.type).macs;
  return rule == nullptr || op.outputs.empty() ? 0 : rule(graph, op);
}

}  // namespace

OperatorCost operatorCost(const ir::Graph& graph, const ir::Operator& op) {
  OperatorCost cost;
  cost.macs = macsOf(graph, op);
  for (int index : op.inputs) {
    if (index == ir::kNoTensor) continue;
    const auto& tensor = graph.tensor(index);
    (tensor.isConstant ? cost.parameterBytes : cost.inputBytes) += tensor.byteSize();
  }
  for (int index : op.outputs) cost.outputBytes += graph.tensor(index).byteSize();
  return cost;
}

GraphCost graphCost(const ir::Graph& graph) {
  GraphCost cost;
  for (const auto& op : graph.operators) cost.macs += macsOf(graph, op);
  // The tensors something reads or writes: a pass that replaced operators
  // (a region compiled to one Ethos-U operator) leaves the old ones' behind.
  std::vector<bool> used(graph.tensors.size(), false);
  const auto use = [&](int t) {
    if (t >= 0 && static_cast<std::size_t>(t) < used.size())
      used[static_cast<std::size_t>(t)] = true;
  };
  for (const auto& op : graph.operators) {
    for (int t : op.inputs) use(t);
    for (int t : op.outputs) use(t);
    for (int t : op.intermediates) use(t);
  }
  for (int t : graph.inputs) use(t);
  for (int t : graph.outputs) use(t);
  for (std::size_t i = 0; i < graph.tensors.size(); ++i) {
    if (!used[i]) continue;
    const ir::Tensor& tensor = graph.tensors[i];
    (tensor.isConstant ? cost.parameterBytes : cost.activationBytes) += tensor.byteSize();
  }
  for (int index : graph.inputs) cost.inputBytes += graph.tensor(index).byteSize();
  for (int index : graph.outputs) cost.outputBytes += graph.tensor(index).byteSize();
  return cost;
}

}  // namespace loupe::analysis
