// The order operators run in decides which tensors are alive together. For a
// graph with branches (a ResNet's skip connections) several orders respect
// the data dependencies; this evaluates them and keeps the one with the
// lowest lower bound, so the planner starts from the least memory any order
// allows. A chain has one order and costs one evaluation.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer_analysis.h"

namespace loupe::memory {

struct ExecutionOrder {
  std::vector<int> operators;        // operator indices, by step
  std::int64_t bound = 0;            // lower bound of the buffers in this order
  std::int64_t graphOrderBound = 0;  // lower bound in the model's own order
  std::int64_t ordersEvaluated = 0;
  bool exhaustive = true;  // false: there were more than maxOrders orders
  bool changed() const { return bound < graphOrderBound; }
};

// Evaluates the topological orders (the model's own first) up to maxOrders
// and returns the best; on a tie the model's order stays. Operators sharing a
// variable tensor keep their relative order.
//
// `groups` lists operators that must run back to back in the given order
// (an NPU region called as one function, whose call happens at one step):
// the search treats each group as one node, so every order it evaluates
// keeps the group contiguous. Throws std::invalid_argument when no order
// can (a group whose operators are not in dependency order, or that another
// operator both reads from and feeds).
ExecutionOrder chooseExecutionOrder(const ir::Graph& graph, const AnalysisOptions& options,
                                    const std::vector<std::vector<int>>& groups = {},
                                    std::int64_t maxOrders = 4096);

// The model's own order with each group moved together: repeatedly the
// ready operator (or group, by its lowest operator index) that comes first.
// Without groups, graphOrder(graph). Throws like chooseExecutionOrder.
std::vector<int> groupedGraphOrder(const ir::Graph& graph,
                                   const std::vector<std::vector<int>>& groups);

}  // namespace loupe::memory
