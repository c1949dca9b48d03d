// Patch-based execution (MCUNetV2): the first operators of a model, a chain
// of convolutions and pools over high-resolution tensors, rewritten to run
// strip by strip of their last output's rows, so that of the tensors between
// them only one strip's rows are alive at once. memory::patchLowerBound
// chooses the chain and the number of strips; this builds the operators.
//
// Per strip, in order: a SLICE of the model input's rows the strip reads (a
// view: no copy, storage_view.h), then each operator of the chain over its
// strip's rows, with the model's padding at the strip's edges spelled out
// and none inside (the rows two strips share are computed twice). The last
// operator of each strip writes its rows straight into the chain's last
// output, a CONCATENATION of the strips marked as a view. The strips are one
// contiguous group for the memory planner, run in order.
#pragma once

#include <map>
#include <vector>

#include "ir/graph.h"
#include "memory/patch_bound.h"

namespace loupe::passes {

struct PatchedGraph {
  ir::Graph graph;
  // The rewritten stage's operators in the new graph, in execution order
  // (slices, strip operators and the concatenation).
  std::vector<int> stageOperators;
  // Every other operator: its index in `graph` before -> after.
  std::map<int, int> renumbered;
};

// `stage` comes from memory::patchLowerBound over `graph`. Operators keep
// their model operators (sourceOperators): a strip operator stands for the
// operator it computes part of, a slice for the first, the concatenation for
// the last. The regions of a partitioned graph are renumbered with it.
PatchedGraph executeInPatches(const ir::Graph& graph, const memory::PatchStage& stage);

}  // namespace loupe::passes
