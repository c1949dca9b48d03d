#include "passes/pass_manager.h"

#include <chrono>

#include "ir/graph_printer.h"
#include "passes/annotate_targets.h"
#include "passes/compile_target_regions.h"
#include "passes/eliminate_dead_code.h"
#include "passes/fold_constants.h"
#include "passes/fuse_operators.h"
#include "passes/infer_shapes_and_types.h"
#include "passes/legalize.h"
#include "passes/merge_target_regions.h"
#include "passes/partition_graph.h"

namespace loupe::passes {

namespace {

const std::vector<GraphPass>& registry() {
  static const std::vector<GraphPass> passes = {
      {std::string(kInferShapesAndTypes), inferShapesAndTypes},
      {std::string(kFoldConstants), foldConstants},
      {std::string(kLegalize), legalize},
      {std::string(kFuseOperators), fuseOperators},
      {std::string(kEliminateDeadCode), eliminateDeadCode},
      {std::string(kAnnotateTargets), annotateTargets},
      {std::string(kMergeTargetRegions), mergeTargetRegions},
      {std::string(kCompileTargetRegions), compileTargetRegions},
      {std::string(kPartitionGraph), partitionGraph},
  };
  return passes;
}

// The default pipeline is the registry up to the partitioning passes.
constexpr std::size_t kDefaultPipelineLength = 5;

Stage graphStage(std::string name, const ir::Graph& graph, double milliseconds) {
  Stage stage;
  stage.name = std::move(name);
  stage.kind = StageKind::Graph;
  stage.text = ir::printGraph(graph);
  stage.milliseconds = milliseconds;
  stage.graph = graph;
  return stage;
}

}  // namespace

std::span<const GraphPass> allGraphPasses() {
  return registry();
}

const GraphPass* findGraphPass(std::string_view name) {
  for (const GraphPass& pass : registry()) {
    if (pass.name == name) return &pass;
  }
  return nullptr;
}

std::vector<GraphPass> defaultGraphPipeline() {
  return {registry().begin(), registry().begin() + kDefaultPipelineLength};
}

std::vector<GraphPass> partitionPipeline() {
  return {registry().begin() + kDefaultPipelineLength, registry().end()};
}

ir::Graph PassManager::run(ir::Graph graph, StageTimeline& timeline, PassContext& context) const {
  for (const GraphPass& pass : passes_) {
    context.currentPass = pass.name;
    const auto start = std::chrono::steady_clock::now();
    graph = pass.run(std::move(graph), context);
    const std::chrono::duration<double, std::milli> elapsed =
        std::chrono::steady_clock::now() - start;
    timeline.add(graphStage(pass.name, graph, elapsed.count()));
  }
  context.currentPass.clear();
  return graph;
}

ir::Graph runGraphPipeline(ir::Graph graph, StageTimeline& timeline, PassContext& context) {
  if (timeline.find(kImportedStage) == nullptr) {
    timeline.add(graphStage(std::string(kImportedStage), graph, 0.0));
  }
  return PassManager(defaultGraphPipeline()).run(std::move(graph), timeline, context);
}

ir::Graph runPartitionPipeline(ir::Graph graph, const target::TargetList& targets,
                               StageTimeline& timeline, PassContext& context) {
  context.targets = targets;
  return PassManager(partitionPipeline()).run(std::move(graph), timeline, context);
}

ir::Graph runGraphPipeline(ir::Graph graph, StageTimeline& timeline) {
  PassContext context;
  return runGraphPipeline(std::move(graph), timeline, context);
}

}  // namespace loupe::passes
