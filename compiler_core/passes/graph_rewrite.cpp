#include "passes/graph_rewrite.h"

#include <algorithm>

namespace loupe::passes {

std::vector<std::vector<TensorUse>> tensorUses(const ir::Graph& graph) {
  std::vector<std::vector<TensorUse>> uses(graph.tensors.size());
  for (std::size_t position = 0; position < graph.operators.size(); ++position) {
    const auto& op = graph.operators[position];
    for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
      const int index = op.inputs[slot];
      if (index == ir::kNoTensor) continue;
      uses.at(static_cast<std::size_t>(index))
          .push_back({static_cast<int>(position), static_cast<int>(slot)});
    }
  }
  return uses;
}

std::vector<int> tensorProducers(const ir::Graph& graph) {
  std::vector<int> producers(graph.tensors.size(), -1);
  for (std::size_t position = 0; position < graph.operators.size(); ++position) {
    for (int index : graph.operators[position].outputs) {
      producers.at(static_cast<std::size_t>(index)) = static_cast<int>(position);
    }
  }
  return producers;
}

bool isGraphInput(const ir::Graph& graph, int tensorIndex) {
  return std::find(graph.inputs.begin(), graph.inputs.end(), tensorIndex) != graph.inputs.end();
}

bool isGraphOutput(const ir::Graph& graph, int tensorIndex) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), tensorIndex) != graph.outputs.end();
}

std::vector<bool> referencedTensors(const ir::Graph& graph) {
  std::vector<bool> referenced(graph.tensors.size(), false);
  const auto mark = [&](int index) {
    if (index != ir::kNoTensor) referenced.at(static_cast<std::size_t>(index)) = true;
  };
  for (const auto& op : graph.operators) {
    for (int index : op.inputs) mark(index);
    for (int index : op.outputs) mark(index);
    for (int index : op.intermediates) mark(index);
  }
  for (int index : graph.inputs) mark(index);
  for (int index : graph.outputs) mark(index);
  return referenced;
}

std::vector<int> mergedSources(const ir::Operator& kept, const ir::Operator& absorbed) {
  std::vector<int> sources = kept.modelOperators();
  for (int index : absorbed.modelOperators()) sources.push_back(index);
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  return sources;
}

std::string operatorLabel(const ir::Operator& op) {
  std::string text = op.typeName() + " #";
  const auto sources = op.modelOperators();
  for (std::size_t i = 0; i < sources.size(); ++i) {
    text += (i ? "+" : "") + std::to_string(sources[i]);
  }
  return text;
}

void removeOperators(ir::Graph& graph, const std::vector<bool>& remove) {
  std::vector<ir::Operator> kept;
  kept.reserve(graph.operators.size());
  for (std::size_t position = 0; position < graph.operators.size(); ++position) {
    if (position < remove.size() && remove[position]) continue;
    ir::Operator op = std::move(graph.operators[position]);
    const int newIndex = static_cast<int>(kept.size());
    if (op.index != newIndex) {
      if (op.sourceOperators.empty()) op.sourceOperators = {op.index};
      op.index = newIndex;
    }
    kept.push_back(std::move(op));
  }
  graph.operators = std::move(kept);
}

}  // namespace loupe::passes
