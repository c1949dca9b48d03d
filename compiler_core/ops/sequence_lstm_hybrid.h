// Hybrid UNIDIRECTIONAL_SEQUENCE_LSTM (float32 input, states and biases;
// int8 weights), as TFLite runs it (TFLite Micro does not): its check,
// reference and C lowering, which ops/sequence_lstm.cpp's definition
// dispatches to for such operators.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "reference/tensor_store.h"
#include "tir/prim_func.h"

namespace loupe::ops {

// A float32 input with int8 input-to-gate weights.
bool isHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op);

std::optional<std::string> checkHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op);
void evalHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                            reference::TensorStore& store);
tir::PrimFunc lowerHybridSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                                      const std::string& functionName);

}  // namespace loupe::ops
