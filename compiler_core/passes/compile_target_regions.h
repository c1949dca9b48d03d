// Pass compile_target_regions: each region merge_target_regions formed for a
// target that compiles its regions to one operator of the graph
// (Target::regionOperatorCompiler, the Ethos-U) is replaced by that
// operator, still on the target but in no region: main calls it like any
// operator (the Ethos-U's through the driver), and the device report counts
// it as the target's. A region's operators are first made
// consecutive: those between them that do not depend on the region move
// before it, those that do move after it (a region is convex, so neither
// move breaks a dependency).
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kCompileTargetRegions = "compile_target_regions";

ir::Graph compileTargetRegions(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
