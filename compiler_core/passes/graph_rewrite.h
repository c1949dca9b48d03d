// Queries and edits the graph passes share: who reads a tensor, who writes
// it, and removing operators while keeping every tensor index stable (tests
// and per-tensor dumps name tensors by their TFLite index) and each
// operator's link to the model operators it stands for.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::passes {

// One read of a tensor: operator position in graph.operators and input slot.
struct TensorUse {
  int op = -1;
  int slot = -1;
};

// For every tensor, the operator inputs that read it.
std::vector<std::vector<TensorUse>> tensorUses(const ir::Graph& graph);

// For every tensor, the position of the operator that writes it, or -1.
std::vector<int> tensorProducers(const ir::Graph& graph);

bool isGraphInput(const ir::Graph& graph, int tensorIndex);
bool isGraphOutput(const ir::Graph& graph, int tensorIndex);

// Every tensor some operator reads, writes or keeps as an intermediate, or
// that is a graph input or output.
std::vector<bool> referencedTensors(const ir::Graph& graph);

// The model operators of both, sorted, without repeats: what an operator
// stands for after `absorbed` has been fused into `kept`.
std::vector<int> mergedSources(const ir::Operator& kept, const ir::Operator& absorbed);

// "CONV_2D #4", or "CONV_2D #3+4" for a fused operator: the type and the
// model operator indices, as pass remarks name operators.
std::string operatorLabel(const ir::Operator& op);

// Removes the operators marked in `remove` (one flag per position) and
// renumbers the rest in execution order. An operator whose index changes
// records its model operators in sourceOperators first, so they stay known.
void removeOperators(ir::Graph& graph, const std::vector<bool>& remove);

}  // namespace loupe::passes
