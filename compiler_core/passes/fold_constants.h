// Pass fold_constants: an operator whose inputs are all constants (none a
// variable) is evaluated once, now, with the reference interpreter's kernel,
// and its outputs become constant tensors holding those bytes; the operator
// is removed. The values are those the operator would compute at run time,
// bit for bit, because the same kernel computes them. Operators that write a
// model output or a variable, opaque operators and operators the kernel
// refuses are left alone. Folding runs in execution order, so chains of
// constant operators fold completely.
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kFoldConstants = "fold_constants";

ir::Graph foldConstants(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
