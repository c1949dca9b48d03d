// Hybrid CONV_2D (float32 activations, int8 filter), as TFLite runs it
// (TFLite Micro does not): its check, reference and C lowering, which
// ops/conv2d.cpp's definition dispatches to for such operators.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "reference/tensor_store.h"
#include "tir/prim_func.h"

namespace loupe::ops {

// A float32 input with an integer filter.
bool isHybridConv2D(const ir::Graph& graph, const ir::Operator& op);

std::optional<std::string> checkHybridConv2D(const ir::Graph& graph, const ir::Operator& op);
void evalHybridConv2D(const ir::Graph& graph, const ir::Operator& op,
                      reference::TensorStore& store);
tir::PrimFunc lowerHybridConv2D(const ir::Graph& graph, const ir::Operator& op,
                                const std::string& functionName);

}  // namespace loupe::ops
