// Hybrid FULLY_CONNECTED (float32 activations, int8 weights), as TFLite runs
// it (TFLite Micro does not): its check, reference and C lowering, which
// ops/fully_connected.cpp's definition dispatches to for such operators.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "reference/tensor_store.h"
#include "tir/prim_func.h"

namespace loupe::ops {

// A float32 input with integer weights.
bool isHybridFullyConnected(const ir::Graph& graph, const ir::Operator& op);

std::optional<std::string> checkHybridFullyConnected(const ir::Graph& graph,
                                                     const ir::Operator& op);
void evalHybridFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                              reference::TensorStore& store);
tir::PrimFunc lowerHybridFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                                        const std::string& functionName);

}  // namespace loupe::ops
