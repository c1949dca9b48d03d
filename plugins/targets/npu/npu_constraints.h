// Whether Loupe's NPU (Ethos-U55-like) can run an operator, rule by rule
// (npu_limits.h, docs/npu_constraints.md): the operator type, the dtypes and
// quantisation of its tensors, its fused activation, stride, dilation, kernel,
// depth multiplier, tensor sizes, weight bytes, bias range and
// requantisation. Every broken rule gives one reason in words naming the
// value and the limit ("stride height 4 exceeds 3").
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::targets::npu {

// Every rule `op` breaks; empty when the NPU accepts it.
std::vector<std::string> npuConstraintViolations(const ir::Graph& graph, const ir::Operator& op);

}  // namespace loupe::targets::npu
