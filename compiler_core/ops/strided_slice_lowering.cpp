// STRIDED_SLICE -> TIR: the per-axis ranges of reference::planStridedSlice
// (begin/end/strides and the masks resolved once, as TFLite Micro resolves
// them, for the input padded to five dimensions) as a strided copy. Axes
// that take one element (shrunk axes among them) only move the base; an axis
// that takes whole rows of the axis inside it merges with it, so a slice
// with stride 1 on the inner dimensions copies contiguous runs; a negative
// stride walks its axis backwards. The output is written in the reference's
// order. When TFLite Micro's walk would not write every output element (a
// shrunk axis with a negative stride, or one of length 0) the result is
// whatever the output held before, which no generated code can reproduce,
// so such slices are refused.
#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph_printer.h"
#include "lowering/lowering_rule.h"
#include "lowering/strided_copy.h"
#include "ops/strided_slice_plan.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// How many positions the reference visits on one axis: start, start +
// stride, ... while before `stop` in the direction of the stride.
std::int64_t visitedCount(const reference::StridedSliceAxisRange& range) {
  const std::int64_t distance = range.stride > 0 ? std::int64_t{range.stop} - range.start
                                                 : std::int64_t{range.start} - range.stop;
  const std::int64_t step = range.stride > 0 ? range.stride : -std::int64_t{range.stride};
  return distance <= 0 ? 0 : (distance + step - 1) / step;
}

}  // namespace

PrimFunc lowerStridedSlice(const ir::Graph& graph, const ir::Operator& op,
                           const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const auto* attrs = std::get_if<ir::StridedSliceAttrs>(&op.attributes);
  const reference::StridedSlicePlan plan =
      reference::planStridedSlice(input.shape, tensorValues<std::int32_t>(*graph.input(op, 1)),
                                  tensorValues<std::int32_t>(*graph.input(op, 2)),
                                  tensorValues<std::int32_t>(*graph.input(op, 3)),
                                  attrs != nullptr ? *attrs : ir::StridedSliceAttrs{});

  std::vector<CopyAxis> axes(reference::kStridedSliceMaxRank);
  std::int64_t inBase = 0, inStride = 1, outStride = 1, visited = 1;
  for (int axis = reference::kStridedSliceMaxRank; axis-- > 0;) {
    const reference::StridedSliceAxisRange& range = plan.axes[axis];
    const std::int64_t count = visitedCount(range);
    axes[axis] = {count, range.stride * inStride, outStride};
    inBase += range.start * inStride;
    inStride *= plan.inputShape[axis];
    outStride *= count;
    visited *= count;
  }
  if (visited != output.elementCount()) {
    fail(op, "TFLite Micro's walk visits " + std::to_string(visited) +
                 " input elements but output " + ir::shapeToString(output.shape) + " has " +
                 std::to_string(output.elementCount()) +
                 " (a shrunk axis with a negative stride, or of length 0); the other output " +
                 "elements would keep stale values, so the slice is not compiled");
  }
  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.input(op.inputs[0], "input");
  Buffer out = fb.param(op.outputs[0], "output", true);
  // Nothing is read when nothing is visited, and then the base may lie
  // outside the input.
  const Expr base = visited == 0 ? 0 : static_cast<int>(inBase);
  return fb.finish(copyNest(in, base, out, 0, simplifyCopyAxes(axes)));
}

}  // namespace loupe::lowering
