// The loop structure BATCH_MATMUL's kernels share (the integer and float
// kernels of ops/batch_matmul.cpp, the hybrid one of
// ops/batch_matmul_hybrid.cpp): the output's batch dimensions as loops with
// each operand's stride (0 where it broadcasts), the matrix sizes and the
// element steps the adjoint flags choose, and how a lowering reads an
// operand.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "lowering/lowering_support.h"

namespace loupe::ops {

// One loop over output batch dimensions: how far each buffer moves per step
// (0 in an operand that broadcasts there).
struct BatchAxis {
  std::int64_t extent = 1;
  std::int64_t lhsStride = 0, rhsStride = 0, outStride = 0;
};

struct MatmulPlan {
  ir::Shape outputShape;
  // Outermost first, length-1 dimensions dropped, neighbours that all three
  // buffers step over evenly merged.
  std::vector<BatchAxis> batch;
  std::int64_t rows = 0, cols = 0, depth = 0;  // a, c and k
  // Element steps inside one matrix: lhs per row and per k, rhs per k and
  // per column (the adjoint flags swap them).
  std::int64_t lhsRowStep = 0, lhsDepthStep = 0, rhsDepthStep = 0, rhsColStep = 0;
  std::string problem;
};

// The plan of `op`, or its problem (a sentence after "needs").
MatmulPlan planBatchMatmul(const ir::Graph& graph, const ir::Operator& op);

// Calls visit(lhsBase, rhsBase, outBase) for every output matrix in row-major
// order, with the first element of the operand matrices it multiplies.
template <typename Visit>
void forEachMatrix(const MatmulPlan& plan, Visit&& visit) {
  std::int64_t count = 1;
  for (const BatchAxis& axis : plan.batch) count *= axis.extent;
  std::vector<std::int64_t> index(plan.batch.size(), 0);
  std::int64_t lhsBase = 0, rhsBase = 0, outBase = 0;
  for (std::int64_t m = 0; m < count; ++m) {
    visit(lhsBase, rhsBase, outBase);
    for (std::size_t d = plan.batch.size(); d-- > 0;) {
      const BatchAxis& axis = plan.batch[d];
      lhsBase += axis.lhsStride;
      rhsBase += axis.rhsStride;
      outBase += axis.outStride;
      if (++index[d] < axis.extent) break;
      lhsBase -= axis.lhsStride * axis.extent;
      rhsBase -= axis.rhsStride * axis.extent;
      outBase -= axis.outStride * axis.extent;
      index[d] = 0;
    }
  }
}

// The batch loops of a lowering: a loop variable per plan axis and the
// offsets of each buffer's matrix inside them.
class BatchLoops {
 public:
  explicit BatchLoops(const MatmulPlan& plan);
  tir::Expr lhsBase, rhsBase, outBase;
  // The offset of a buffer that moves `stride(axis)` per step of each axis.
  tir::Expr base(const std::function<std::int64_t(const BatchAxis&)>& stride) const;
  // `body` inside the loops, outermost first.
  tir::Stmt around(tir::Stmt body) const;

 private:
  const MatmulPlan& plan_;
  std::vector<tir::Var> vars_;
};

// How the lowering reads one operand: its buffer, the element step along
// its rows (lhs) or columns (rhs), and along the depth.
struct OperandAccess {
  tir::Buffer buffer;
  std::int64_t lineStep = 0;
  std::int64_t depthStep = 0;
};

// A run-time operand is read in place; a constant one whose depth is strided
// is emitted with its depth contiguous (same matrices, same batch strides).
OperandAccess operandAccess(lowering::FunctionBuilder& fb, const ir::Tensor& tensor,
                            int tensorIndex, const std::string& role, std::int64_t lines,
                            std::int64_t depth, std::int64_t lineStep, std::int64_t depthStep);

}  // namespace loupe::ops
