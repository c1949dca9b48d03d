// Static cost of operators and graphs: multiply-accumulates and the bytes each
// operator reads, writes and keeps as parameters. Shown by `loupec info`, the
// GUI's properties, and used to weigh memory plans and targets.
#pragma once

#include <cstdint>

#include "ir/graph.h"

namespace loupe::analysis {

struct OperatorCost {
  // Multiply-accumulates of convolutions, fully connected layers and
  // recurrent cells; one per accumulated element for pooling and reductions;
  // one per output element for element-wise arithmetic; 0 for data movement.
  std::int64_t macs = 0;
  std::int64_t inputBytes = 0;      // non-constant operands read
  std::int64_t outputBytes = 0;     // tensors written
  std::int64_t parameterBytes = 0;  // constant operands (weights, biases, shapes)
};

OperatorCost operatorCost(const ir::Graph& graph, const ir::Operator& op);

struct GraphCost {
  std::int64_t macs = 0;
  std::int64_t parameterBytes = 0;   // every constant tensor, counted once
  std::int64_t activationBytes = 0;  // every non-constant tensor, counted once
  std::int64_t inputBytes = 0;       // the model inputs
  std::int64_t outputBytes = 0;      // the model outputs
};

GraphCost graphCost(const ir::Graph& graph);

}  // namespace loupe::analysis
