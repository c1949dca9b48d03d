// One operator of a real model as a graph of its own, for codegen tests that
// compile every layer of the shared models separately: the operator, copies
// of the tensors it reads and writes (constants keep their data), its first
// input as the model input and its first output as the model output.
#pragma once

#include <map>
#include <vector>

#include "ir/graph.h"

namespace loupe::test {

inline ir::Graph singleOperatorGraph(const ir::Graph& model, const ir::Operator& op) {
  ir::Graph graph;
  graph.name = model.name + "_op" + std::to_string(op.index);
  std::map<int, int> copied;
  auto copy = [&](int index) {
    if (index < 0) return index;
    if (auto it = copied.find(index); it != copied.end()) return it->second;
    ir::Tensor t = model.tensor(index);
    t.index = static_cast<int>(graph.tensors.size());
    graph.tensors.push_back(std::move(t));
    copied[index] = graph.tensors.back().index;
    return graph.tensors.back().index;
  };
  ir::Operator single = op;
  single.index = 0;
  single.inputs.clear();
  single.outputs.clear();
  single.intermediates.clear();
  for (int index : op.inputs) single.inputs.push_back(copy(index));
  for (int index : op.outputs) single.outputs.push_back(copy(index));
  graph.inputs = {single.inputs.front()};
  graph.outputs = {single.outputs.front()};
  graph.operators.push_back(std::move(single));
  return graph;
}

}  // namespace loupe::test
