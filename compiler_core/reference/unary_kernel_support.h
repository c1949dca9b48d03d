// Checks shared by the operators with one input and one output tensor
// (activations, QUANTIZE, DEQUANTIZE): operand counts, element counts, and the
// wording of "this dtype combination is not supported", so every such kernel
// reports problems the same way. The general helpers (tensor descriptions,
// per-tensor quantisation, required zero points) are in kernel_checks.h.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "ir/graph.h"
#include "reference/kernel_checks.h"
#include "reference/tensor_store.h"

namespace loupe::reference {

// A supported (input dtype, output dtype) combination.
using DTypePair = std::pair<ir::DType, ir::DType>;

// Exactly one present input and one output with the same number of elements.
std::optional<std::string> checkUnaryOperands(const ir::Graph& graph, const ir::Operator& op);

// The input/output dtype pair is one of `supported`; otherwise names what was
// found and lists what the operator accepts.
std::optional<std::string> checkDTypePair(const ir::Operator& op, const ir::Tensor& input,
                                          const ir::Tensor& output,
                                          std::initializer_list<DTypePair> supported);

bool isQuantizedIntegerType(ir::DType type);

// Applies `function` to every element of the operator's input, writing the
// results to its output (elementwise operators).
template <typename In, typename Out, typename Function>
void mapElements(const ir::Operator& op, TensorStore& store, std::int64_t count,
                 Function function) {
  const In* input = store.data<In>(op.inputs[0]);
  Out* output = store.mutableData<Out>(op.outputs[0]);
  for (std::int64_t i = 0; i < count; ++i) output[i] = function(input[i]);
}

}  // namespace loupe::reference
