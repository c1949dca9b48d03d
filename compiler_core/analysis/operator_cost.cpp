#include "analysis/operator_cost.h"

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
  for (const auto& tensor : graph.tensors) {
    (tensor.isConstant ? cost.parameterBytes : cost.activationBytes) += tensor.byteSize();
  }
  for (int index : graph.inputs) cost.inputBytes += graph.tensor(index).byteSize();
  for (int index : graph.outputs) cost.outputBytes += graph.tensor(index).byteSize();
  return cost;
}

}  // namespace loupe::analysis
