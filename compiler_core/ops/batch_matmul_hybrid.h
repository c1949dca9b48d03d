// Hybrid BATCH_MATMUL (float32 lhs, int8 rhs), as TFLite runs it (TFLite
// Micro does not): its check, reference and C lowering, which
// ops/batch_matmul.cpp's definition dispatches to for such operators.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "reference/tensor_store.h"
#include "tir/prim_func.h"

namespace loupe::ops {

// A float32 lhs with an int8 rhs.
bool isHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op);

std::optional<std::string> checkHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op);
void evalHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op,
                           reference::TensorStore& store);
tir::PrimFunc lowerHybridBatchMatmul(const ir::Graph& graph, const ir::Operator& op,
                                     const std::string& functionName);

}  // namespace loupe::ops
