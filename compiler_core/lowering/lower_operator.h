// Lowering: one graph operator (after the graph passes) to one TIR PrimFunc.
// Each operator type has its own file (lower_<op>.cpp) with the loop nest
// that computes exactly what the reference kernel computes; this header is
// the single entry point the compile pipeline calls.
#pragma once

#include <string>

#include "ir/graph.h"
#include "tir/prim_func.h"

namespace loupe::lowering {

// Throws LoweringError naming the operator when it has no lowering.
tir::PrimFunc lowerOperator(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName);

}  // namespace loupe::lowering
