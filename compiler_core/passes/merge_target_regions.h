// Pass merge_target_regions (TVM's MergeCompilerRegions): groups operators
// annotated with the same target other than the CPU ("c") into regions, so
// each region can become one external function. Every such operator starts
// as a region of its own; in execution order, an operator's region is merged
// with the region of each producer on the same target when the union stays
// convex: no path from the region to an operator outside it leads back into
// it (merging across such an operator would leave no order in which to run
// the region as one call). Operators on "c", or on no target, stay outside
// every region (region -1). Regions are numbered by their first operator.
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kMergeTargetRegions = "merge_target_regions";

ir::Graph mergeTargetRegions(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
