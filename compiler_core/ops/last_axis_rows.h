// Operators that work row by row along the last dimension (LOG_SOFTMAX,
// L2_NORMALIZATION): the input seen as `count` rows of `depth` elements, for
// the reference kernel, and the row loop of the lowering.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "ir/tensor.h"
#include "lowering/lowering_support.h"

namespace loupe::ops {

struct Rows {
  std::int64_t count = 0;
  std::int64_t depth = 0;
};

inline Rows rowsOf(const ir::Tensor& tensor) {
  const std::int64_t depth = tensor.shape.back();
  return {depth == 0 ? 0 : tensor.elementCount() / depth, depth};
}

// The loop over rows; at(c) is element c of the current row.
struct RowLoop {
  tir::Var row = lowering::loopVar("r");
  int depth = 0;
  tir::Expr at(const tir::Var& c) const { return tir::refVar(row) * depth + tir::refVar(c); }
};

// The lowering of a row-by-row operator over input 0 into output 0: `row`
// gives the statement of one row, run for each row in order.
inline tir::PrimFunc lowerByRows(
    const ir::Graph& graph, const ir::Operator& op, const std::string& functionName,
    const std::function<tir::Stmt(lowering::FunctionBuilder& fb, const tir::Buffer& in,
                                  const tir::Buffer& out, const RowLoop& r)>& row) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const Rows rows = rowsOf(*graph.input(op, 0));
  RowLoop r;
  r.depth = static_cast<int>(rows.depth);
  const tir::Stmt body = row(fb, in, out, r);
  return fb.finish(tir::forLoop(r.row, 0, static_cast<int>(rows.count), body));
}

}  // namespace loupe::ops
