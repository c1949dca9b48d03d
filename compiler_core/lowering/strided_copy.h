// Element copies whose source and destination positions are affine in the
// loop counters: TRANSPOSE, STRIDED_SLICE and the slabs of CONCATENATION move
// elements without computing anything, and differ only in the strides. They
// describe the copy as axes, let simplifyCopyAxes make the loops as few and the
// innermost one as long as the data allows, and print the nest with copyNest.
#pragma once

#include <cstdint>
#include <vector>

#include "tir/stmt.h"

namespace loupe::lowering {

// One loop of a copy: `extent` iterations stepping `inStride` elements in the
// source and `outStride` in the destination (negative for a reversed slice).
struct CopyAxis {
  std::int64_t extent = 1;
  std::int64_t inStride = 0;
  std::int64_t outStride = 0;
};

// The same copy with fewer loops, order kept: axes of extent 1 go (they only
// move the bases), and an axis merges into the one inside it when it steps
// exactly over that axis's whole run in both buffers (dimensions a transpose
// keeps together, slices that take whole rows). A copy of nothing is one axis
// of extent 0; a copy of one element has no axes.
std::vector<CopyAxis> simplifyCopyAxes(const std::vector<CopyAxis>& axes);

// out[outBase + sum(i_k * outStride_k)] = in[inBase + sum(i_k * inStride_k)]
// for every counter i_k < extent_k, axes[0] outermost. A short innermost loop
// is marked for unrolling.
tir::Stmt copyNest(const tir::Buffer& in, const tir::Expr& inBase, const tir::Buffer& out,
                   const tir::Expr& outBase, const std::vector<CopyAxis>& axes);

}  // namespace loupe::lowering
