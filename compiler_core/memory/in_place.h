// Which operators may write their output over one of their inputs. The
// generated loop of such an operator reads element i of that input and
// writes element i of the output in the same iteration and touches no other
// element of either, so sharing the storage changes no result. The planner
// uses it only when the input dies at that step and both have the same bytes;
// code generation then drops `restrict` from the operator's parameters.
#pragma once

#include <cstddef>

#include "ir/graph.h"

namespace loupe::memory {

// Whether `op` may write its output into the storage of input `slot`.
bool mayWriteInPlace(const ir::Graph& graph, const ir::Operator& op, std::size_t slot);

}  // namespace loupe::memory
