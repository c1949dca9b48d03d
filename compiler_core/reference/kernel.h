// The interface every reference kernel implements: a check that says, before
// anything runs, why an operator cannot be evaluated (unsupported dtypes,
// shapes or attributes), and the evaluation itself over a TensorStore.
// Kernels follow TFLite Micro's reference kernels bit for bit for integer
// types; the fixed-point arithmetic comes from loupe/fixed_point.h.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "reference/tensor_store.h"

namespace loupe::reference {

struct Kernel {
  ir::OpType type;
  // Returns the reason the operator cannot run, or nullopt when it can.
  std::optional<std::string> (*check)(const ir::Graph& graph, const ir::Operator& op);
  void (*eval)(const ir::Graph& graph, const ir::Operator& op, TensorStore& store);
};

// The kernel for an operator type, or nullptr when there is none.
const Kernel* findKernel(ir::OpType type);

}  // namespace loupe::reference
