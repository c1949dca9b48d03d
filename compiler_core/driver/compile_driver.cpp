#include "driver/compile_driver.h"

#include <stdexcept>
#include <utility>

#include "ir/graph_printer.h"
#include "passes/annotate_targets.h"
#include "passes/merge_target_regions.h"
#include "passes/partition_graph.h"
#include "passes/pass_manager.h"
#include "target/target_lowering.h"
#include "tuning/schedule_fit.h"

namespace loupe::driver {

PartitionedModel partitionModel(ir::Graph model, const target::TargetList& targets) {
  PartitionedModel result;
  passes::PassContext context;
  result.graph = passes::runGraphPipeline(std::move(model), result.timeline, context);
  if (!targets.empty()) {
    result.graph =
        passes::runPartitionPipeline(std::move(result.graph), targets, result.timeline, context);
  }
  return result;
}

ir::Graph previewPartitioning(ir::Graph model, const target::TargetList& targets) {
  passes::PassContext context;
  ir::Graph graph = passes::annotateOperatorTargets(std::move(model), targets);
  return passes::partitionGraph(passes::mergeTargetRegions(std::move(graph), context), context);
}

namespace {

// The first plan, the board's default first, that fits its memories.
codegen::CompiledModel compileToFit(const ir::Graph& graph, const target::TargetList& targets,
                                    const codegen::CompileOptions& options, MemoryFit& fit) {
  for (const PlanSavings savings : kPlanSavingsInOrder) {
    codegen::CompileOptions attempt = options;
    applyPlanSavings(attempt, savings);
    try {
      codegen::CompiledModel model = target::compileForTargets(graph, targets, std::move(attempt));
      fit.fitted = true;
      fit.applied = savings;
      fit.searched = savings != kBoardDefaultPlan;
      return model;
    } catch (const memory::MemoryPlanError& error) {
      fit.refused.push_back({savings, error.what(), error.shortBytes()});
    }
  }
  const RefusedPlan* closest = closestRefusedPlan(fit.refused);
  throw memory::MemoryPlanError(describeNoPlanFits(fit.refused),
                                closest != nullptr ? closest->shortBytes : -1);
}

}  // namespace

Compilation compileModel(CompileRequest request) {
  if (request.targets.empty()) {
    throw std::invalid_argument("no target to compile for (the CPU's is \"c\")");
  }
  codegen::reportStage(request.options, "graph passes and partitioning");
  PartitionedModel partitioned = partitionModel(std::move(request.model), request.targets);
  Compilation compilation;
  compilation.timeline = std::move(partitioned.timeline);
  compilation.graph = std::move(partitioned.graph);
  request.options.isa = target::cpuIsaFor(request.targets, request.boardCpu);
  // The explicit schedules win over the offered ones (std::map::merge keeps
  // the entries the destination has).
  request.options.schedules.merge(
      tuning::schedulesThatFit(request.offeredSchedules, compilation.graph, request.options.isa));
  compilation.schedules = request.options.schedules;
  if (request.fitToMemories && !request.options.boardMemories.empty() &&
      planSavingsOf(request.options) == PlanSavings::None) {
    compilation.model =
        compileToFit(compilation.graph, request.targets, request.options, compilation.fit);
  } else {
    compilation.model =
        target::compileForTargets(compilation.graph, request.targets, std::move(request.options));
  }
  if (compilation.model.patches) {
    // The code runs the rewritten graph: its operators are the ones the
    // calls, the plan and the profile name.
    compilation.graph = compilation.model.graph;
    compilation.timeline.add({"patch_execution", passes::StageKind::Graph,
                              ir::printGraph(compilation.graph), 0.0, compilation.graph});
  }
  compilation.devices = target::deviceReport(compilation.graph, request.targets);
  return compilation;
}

}  // namespace loupe::driver
