// Operators that work row by row along the last dimension (LOG_SOFTMAX,
// L2_NORMALIZATION): the input seen as `count` rows of `depth` elements, for
// the reference kernel, and the row loop of the lowering.
#pragma once

#include <cstdint>

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

}  // namespace loupe::ops
