#include "memory/planner_registry.h"

#include "memory/algorithms/algorithms.h"

namespace loupe::memory {

const std::vector<PlannerInfo>& planners() {
  static const std::vector<PlannerInfo> table = {
      {"greedy_by_size", "largest buffer first, each at its lowest free offset", planGreedyBySize},
      {"greedy_by_conflicts", "most constrained buffer first (own bytes plus bytes alive with it)",
       planGreedyByConflicts},
      {"hill_climb", "seeded swaps of the placement order, kept when the plan does not grow",
       planHillClimb},
      {"branch_and_bound",
       "exact search over placement orders; proves optimality or reports the gap",
       planBranchAndBound},
  };
  return table;
}

const PlannerInfo* findPlanner(std::string_view name) {
  for (const PlannerInfo& p : planners()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace loupe::memory
