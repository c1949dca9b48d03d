// Runs graph passes in order and records each one's result in the stage
// timeline (LLVM's -print-after-all, kept for the GUI and for tests). The
// default pipeline is the one every compilation uses:
//   infer_shapes_and_types, fold_constants, legalize, fuse_operators,
//   eliminate_dead_code.
// Partitioning follows it when targets are chosen (--target):
//   annotate_targets, merge_target_regions, partition_graph;
// the stage of partition_graph is the "Partitioned" graph: every operator's
// target and region, and the external functions.
// The passes are registered by name, so the CLI and the GUI can list them.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "passes/pass.h"
#include "passes/stage_timeline.h"

namespace loupe::passes {

// The name of the first stage: the graph as the importer produced it.
inline constexpr std::string_view kImportedStage = "imported";

// Every graph pass Loupe has: the default pipeline's, then the partition
// pipeline's, in order.
std::span<const GraphPass> allGraphPasses();

// The pass of that name, or nullptr.
const GraphPass* findGraphPass(std::string_view name);

// The standard ordered list of graph passes.
std::vector<GraphPass> defaultGraphPipeline();

// annotate_targets, merge_target_regions, partition_graph.
std::vector<GraphPass> partitionPipeline();

class PassManager {
 public:
  explicit PassManager(std::vector<GraphPass> passes) : passes_(std::move(passes)) {}

  const std::vector<GraphPass>& passes() const { return passes_; }

  // Runs every pass in order; after each, adds a Graph stage named after the
  // pass with the printed graph, the graph and the time the pass took. A
  // PassError propagates, the timeline then holds the stages before it.
  ir::Graph run(ir::Graph graph, StageTimeline& timeline, PassContext& context) const;

 private:
  std::vector<GraphPass> passes_;
};

// Records `graph` as the "imported" stage (unless the timeline has one),
// then runs the default pipeline over it.
ir::Graph runGraphPipeline(ir::Graph graph, StageTimeline& timeline, PassContext& context);
ir::Graph runGraphPipeline(ir::Graph graph, StageTimeline& timeline);

// Runs the partition pipeline for `targets` (priority order) over a graph the
// default pipeline has run over. Throws PassError naming every operator no
// target accepts.
ir::Graph runPartitionPipeline(ir::Graph graph, const target::TargetList& targets,
                               StageTimeline& timeline, PassContext& context);

}  // namespace loupe::passes
