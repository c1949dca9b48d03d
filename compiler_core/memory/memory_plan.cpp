#include "memory/memory_plan.h"

#include <algorithm>
#include <chrono>

#include "ir/graph_printer.h"
#include "memory/lower_bound.h"
#include "memory/plan_checker.h"
#include "memory/planner_registry.h"

namespace loupe::memory {

namespace {

std::string joinProblems(const std::vector<std::string>& problems) {
  std::string text;
  for (const std::string& p : problems) text += "\n  " + p;
  return text;
}

std::string bytes(std::int64_t n) {
  return ir::groupDigits(n) + " bytes";
}

}  // namespace

MemoryPlan::Placement MemoryPlan::placementOf(int tensor) const {
  auto root = analysis.storageOf.find(tensor);
  if (root == analysis.storageOf.end()) return {};
  for (std::size_t i = 0; i < analysis.buffers.size(); ++i) {
    if (analysis.buffers[i].scratchOf < 0 && analysis.buffers[i].tensor == root->second) {
      return {result.pool[i], result.offset[i] + storageOffset(analysis, tensor)};
    }
  }
  return {};
}

MemoryPlan::Placement MemoryPlan::scratchPlacementOf(int op) const {
  for (std::size_t i = 0; i < analysis.buffers.size(); ++i) {
    if (analysis.buffers[i].scratchOf == op) return {result.pool[i], result.offset[i]};
  }
  return {};
}

WorkspaceAnalysis plannedAnalysis(const ir::Graph& graph, const MemoryPlanOptions& options,
                                  ExecutionOrder* order) {
  AnalysisOptions analysisOptions;
  analysisOptions.alignment = largestAlignment(options.pools);
  analysisOptions.inPlace = options.inPlace;
  analysisOptions.scratchBytes = options.scratchBytes;
  ExecutionOrder chosen;
  if (options.reorder) {
    chosen = chooseExecutionOrder(graph, analysisOptions, options.contiguousGroups);
  } else {
    chosen.operators = groupedGraphOrder(graph, options.contiguousGroups);
  }
  WorkspaceAnalysis analysis = analyzeWorkspace(graph, chosen.operators, analysisOptions);
  if (order != nullptr) *order = std::move(chosen);
  return analysis;
}

MemoryPlan planMemoryUnchecked(const ir::Graph& graph, const MemoryPlanOptions& options) {
  const PlannerInfo* planner = findPlanner(options.planner);
  if (planner == nullptr) {
    std::string known;
    for (const PlannerInfo& p : planners())
      known += (known.empty() ? "" : ", ") + std::string(p.name);
    throw std::invalid_argument("unknown planner \"" + options.planner + "\" (known: " + known +
                                ")");
  }
  if (options.pools.empty()) throw std::invalid_argument("no memory pool to plan into");
  MemoryPlan plan;
  plan.planner = std::string(planner->name);
  plan.pools = options.pools;
  plan.scratchBytes = options.scratchBytes;
  plan.analysis = plannedAnalysis(graph, options, &plan.order);
  plan.lowerBound = plan.tensorLevelBound = liveBytesLowerBound(plan.analysis.buffers);
  if (options.overlaps) {
    plan.overlaps = options.overlaps(plan.analysis);
    plan.lowerBound = overlapLowerBound(plan.analysis.buffers, plan.overlaps);
  }
  if (!options.reorder) {
    plan.order.bound = plan.order.graphOrderBound = plan.tensorLevelBound;
    plan.order.ordersEvaluated = 1;
  }

  PlanProblem problem;
  problem.buffers = plan.analysis.buffers;
  problem.pools = options.pools;
  problem.lowerBound = plan.lowerBound;
  problem.overlaps = plan.overlaps;
  problem.seed = options.seed;
  const auto start = std::chrono::steady_clock::now();
  plan.result = planner->plan(problem);
  plan.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  std::vector<std::string> problems = checkAliases(plan.analysis);
  if (plan.result.fits) {
    const auto planProblems = checkPlan(problem, plan.result, plan.overlaps);
    problems.insert(problems.end(), planProblems.begin(), planProblems.end());
  }
  if (!problems.empty()) {
    throw std::logic_error("the " + plan.planner +
                           " memory plan failed its check:" + joinProblems(problems));
  }
  return plan;
}

std::vector<OverlapAllowance> MemoryPlan::usedOverlaps() const {
  std::vector<OverlapAllowance> used;
  for (const OverlapAllowance& a : overlaps) {
    const auto in = static_cast<std::size_t>(a.inputBuffer);
    const auto out = static_cast<std::size_t>(a.outputBuffer);
    if (result.pool.size() <= std::max(in, out) || result.pool[in] != result.pool[out]) continue;
    const std::int64_t inEnd = result.offset[in] + analysis.buffers[in].size;
    const std::int64_t outEnd = result.offset[out] + analysis.buffers[out].size;
    if (result.offset[in] < outEnd && result.offset[out] < inEnd) used.push_back(a);
  }
  return used;
}

MemoryPlan planMemory(const ir::Graph& graph, const MemoryPlanOptions& options) {
  MemoryPlan plan = planMemoryUnchecked(graph, options);
  if (!plan.result.fits) {
    const Misfit misfit = describeMisfit(graph, plan, options.overlaps);
    throw MemoryPlanError(misfit.text, misfit.shortBytes);
  }
  return plan;
}

std::vector<MemoryPlan> planMemoryWithEveryPlanner(const ir::Graph& graph,
                                                   const MemoryPlanOptions& options) {
  std::vector<MemoryPlan> plans;
  for (const PlannerInfo& p : planners()) {
    MemoryPlanOptions o = options;
    o.planner = std::string(p.name);
    plans.push_back(planMemoryUnchecked(graph, o));
  }
  return plans;
}

Misfit describeMisfit(
    const ir::Graph& graph, const MemoryPlan& plan,
    const std::function<std::vector<OverlapAllowance>(const WorkspaceAnalysis&)>& overlaps) {
  // The best any algorithm achieves without limits is what the board needs
  // (with the same overlaps allowed, when outputs may overlap their inputs).
  MemoryPlanOptions unbounded;
  unbounded.scratchBytes = plan.scratchBytes;
  unbounded.overlaps = overlaps;
  unbounded.pools = defaultPools();
  unbounded.pools[0].alignment = largestAlignment(plan.pools);
  std::int64_t best = -1;
  std::string bestPlanner;
  for (const PlannerInfo& p : planners()) {
    unbounded.planner = std::string(p.name);
    const MemoryPlan candidate = planMemoryUnchecked(graph, unbounded);
    if (best < 0 || candidate.result.totalBytes < best) {
      best = candidate.result.totalBytes;
      bestPlanner = candidate.planner;
    }
  }
  std::int64_t capacity = 0;
  std::string names;
  for (const MemoryPool& p : plan.pools) {
    capacity += p.size;
    names += (names.empty() ? "" : " + ") + p.name + " (" +
             (p.memory.empty() ? "" : "in " + p.memory + ", ") + bytes(p.size) + ")";
  }
  const WorkspaceBuffer& first =
      plan.analysis.buffers.at(static_cast<std::size_t>(plan.result.unplaced));
  const std::string& lastPool = plan.pools.back().name;
  std::string text = "the model's intermediate tensors do not fit in pool";
  text += plan.pools.size() > 1 ? "s " : " ";
  text += names + ": with the " + plan.planner + " plan, " +
          (first.scratchOf >= 0 ? "" : "tensor ") + "\"" + bufferName(graph, first) + "\" (" +
          bytes(first.size) + ", steps " + std::to_string(first.firstStep) + "-" +
          std::to_string(first.lastStep) + ") finds no room in pool " + lastPool + ", and " +
          bytes(plan.result.unplacedBytes) +
          " of buffers are left out. The best achievable plan needs " + bytes(best) + " (" +
          bestPlanner + "; lower bound " + bytes(plan.lowerBound) + ")";
  if (best > capacity) {
    text += ", " + bytes(best - capacity) + " short of what the pools hold";
  } else if (plan.pools.size() == 1) {
    text += ", which the pool would hold: try --planner " + bestPlanner;
  } else {
    text +=
        ", which the pools hold together, but a buffer cannot span two pools: try "
        "--planner all, or fewer, larger pools";
  }
  return {text, std::max<std::int64_t>(best - capacity, 0)};
}

}  // namespace loupe::memory
