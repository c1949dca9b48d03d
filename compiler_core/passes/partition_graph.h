// Pass partition_graph (TVM's PartitionGraph): turns each region of
// merge_target_regions into an external function named after its target and
// its number on that target ("npu_0", "npu_1"), recording its operators,
// the tensors main passes in, the tensors it gives back and the constants it
// owns; and writes main as calls, in an order that respects every data
// dependency (CPU operators and whole regions, earliest first operator
// first). Operators keep their positions and indices, so code generation can
// still compile every operator on its own.
#pragma once

#include <string_view>

#include "ir/graph.h"
#include "passes/pass.h"

namespace loupe::passes {

inline constexpr std::string_view kPartitionGraph = "partition_graph";

ir::Graph partitionGraph(ir::Graph graph, PassContext& context);

}  // namespace loupe::passes
