// The loop nest of an element-wise operator with NumPy broadcasting (the new
// binary operators: MAXIMUM, MINIMUM, ...): the output walked in row-major
// order, each input read at its own flat index, with stride 0 along the
// dimensions it broadcasts.
#pragma once

#include <functional>
#include <string>

#include "ir/graph.h"
#include "tir/prim_func.h"
#include "tir/stmt.h"

namespace loupe::ops {

using BroadcastBody = std::function<tir::Stmt(const tir::Expr& outIndex, const tir::Expr& aIndex,
                                              const tir::Expr& bIndex)>;

// Equal shapes give one flat loop; otherwise one loop per output dimension
// longer than 1.
tir::Stmt broadcastLoops(const ir::Shape& out, const ir::Shape& a, const ir::Shape& b,
                         const BroadcastBody& body);

// One flat loop over `elements`.
tir::Stmt flatLoop(std::int64_t elements, const std::function<tir::Stmt(const tir::Expr&)>& body);

// The lowering of a two-input operator whose output element is
// `value(a, b)` of its input elements a and b ("input1", "input2").
tir::PrimFunc lowerBroadcastBinary(
    const ir::Graph& graph, const ir::Operator& op, const std::string& functionName,
    const std::function<tir::Expr(const tir::Expr& a, const tir::Expr& b)>& value);

}  // namespace loupe::ops
