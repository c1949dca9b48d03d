// The memory planning driver: chooses the execution order, analyses the
// buffers in it, runs one algorithm over the pools, checks the plan and
// reports its size against the lower bound. Code generation, MLF metadata,
// `loupec memplan` and the Memory Plan view all read a MemoryPlan.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/execution_order.h"
#include "memory/overlap_bound.h"
#include "memory/planner.h"

namespace loupe::memory {

// The plan does not fit the pools; the message names the pool, the bytes
// needed and the best any algorithm achieved. shortBytes: how many bytes the
// best plan lacks, when known (-1 otherwise), so that a caller trying other
// plans (driver/memory_fit.h) can say which came closest.
class MemoryPlanError : public std::runtime_error {
 public:
  explicit MemoryPlanError(const std::string& message, std::int64_t shortBytes = -1)
      : std::runtime_error(message), shortBytes_(shortBytes) {}
  std::int64_t shortBytes() const { return shortBytes_; }

 private:
  std::int64_t shortBytes_ = -1;
};

struct MemoryPlanOptions {
  std::string planner = "branch_and_bound";
  std::vector<MemoryPool> pools = defaultPools();
  bool inPlace = true;
  bool reorder = true;  // search the execution orders of branching graphs
  std::uint64_t seed = 1;
  // Operator index -> bytes of its function's scratch region, to place
  // beside the tensors (from the lowered functions).
  std::map<int, std::int64_t> scratchBytes;
  // Operators that run as one call (an NPU region compiled to one function):
  // each group runs back to back in the order given, in every order the
  // planner considers. Their tensors are still planned one by one with the
  // lifetimes of their operators' steps.
  std::vector<std::vector<int>> contiguousGroups;
  // Let outputs start inside inputs that die with them (`loupec
  // --overlap-outputs`): codegen sets `overlaps` from the functions' loops.
  bool overlapOutputs = false;
  // Run the model's first high-resolution operators strip by strip when that
  // lowers the bound (`loupec --patches`; passes/patch_execution.h):
  // codegen rewrites the graph before lowering it.
  bool patches = false;
  // Outputs written partly over inputs that die with them: with the
  // execution order's buffers fixed, which operators may and how far before
  // the input the output must start (codegen traces the generated loops).
  // Empty: no buffer overlaps another.
  std::function<std::vector<OverlapAllowance>(const WorkspaceAnalysis&)> overlaps;
};

struct MemoryPlan {
  std::string planner;
  std::vector<MemoryPool> pools;
  std::map<int, std::int64_t> scratchBytes;
  ExecutionOrder order;
  WorkspaceAnalysis analysis;
  PlanResult result;  // indexed like analysis.buffers
  // The overlaps the planner was allowed (MemoryPlanOptions::overlaps).
  std::vector<OverlapAllowance> overlaps;
  // The bound the plan is measured against: the tensor-level one, or with
  // overlaps allowed the bound under them (overlap_bound.h).
  std::int64_t lowerBound = 0;
  std::int64_t tensorLevelBound = 0;  // the most bytes of whole tensors alive at one step
  double milliseconds = 0;            // the algorithm's time, without analysis

  std::int64_t gap() const { return result.totalBytes - lowerBound; }
  // The pool and offset of the storage behind `tensor`, when it is planned
  // (a view's at its offset in the buffer it shares).
  struct Placement {
    int pool = -1;
    std::int64_t offset = -1;
  };
  Placement placementOf(int tensor) const;
  // The place of operator `op`'s scratch region.
  Placement scratchPlacementOf(int op) const;
  // The allowances the plan uses: outputs placed over their inputs.
  std::vector<OverlapAllowance> usedOverlaps() const;
};

// The buffers planMemory places: the execution order (the best one found
// with options.reorder, else the graph's with the groups together; stored in
// `order` when given) and the workspace analysis in it.
WorkspaceAnalysis plannedAnalysis(const ir::Graph& graph, const MemoryPlanOptions& options,
                                  ExecutionOrder* order = nullptr);

// Plans without throwing when the pools are too small (result.fits is false);
// throws std::invalid_argument for an unknown planner or a bad pool list, and
// std::logic_error when the plan checker finds a fault (a bug, not bad input).
MemoryPlan planMemoryUnchecked(const ir::Graph& graph, const MemoryPlanOptions& options);

// As above, and throws MemoryPlanError when the plan does not fit.
MemoryPlan planMemory(const ir::Graph& graph, const MemoryPlanOptions& options);

// Every registered algorithm on the same buffers and pools.
std::vector<MemoryPlan> planMemoryWithEveryPlanner(const ir::Graph& graph,
                                                   const MemoryPlanOptions& options);

// Why `plan` does not fit, in words: which pool, the bytes needed, the best
// achievable; and the bytes the best achievable plan lacks (0 when the pools
// would hold it with another planner or layout).
struct Misfit {
  std::string text;
  std::int64_t shortBytes = 0;
};
// `overlaps`: MemoryPlanOptions::overlaps of the plan, if any.
Misfit describeMisfit(
    const ir::Graph& graph, const MemoryPlan& plan,
    const std::function<std::vector<OverlapAllowance>(const WorkspaceAnalysis&)>& overlaps = {});

}  // namespace loupe::memory
