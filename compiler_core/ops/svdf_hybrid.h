// Hybrid SVDF (float32 input, state and output; int8 weights), as TFLite runs
// it (TFLite Micro does not): its check, reference and C lowering, which
// ops/svdf.cpp's definition dispatches to for such operators.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "reference/tensor_store.h"
#include "tir/prim_func.h"

namespace loupe::ops {

// A float32 input with int8 feature weights.
bool isHybridSvdf(const ir::Graph& graph, const ir::Operator& op);

std::optional<std::string> checkHybridSvdf(const ir::Graph& graph, const ir::Operator& op);
void evalHybridSvdf(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store);
tir::PrimFunc lowerHybridSvdf(const ir::Graph& graph, const ir::Operator& op,
                              const std::string& functionName);

}  // namespace loupe::ops
