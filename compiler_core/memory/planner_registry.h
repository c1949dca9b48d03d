// The planning algorithms by name, for `--planner NAME|all`, the GUI's
// algorithm selector and the tests that run every one of them.
#pragma once

#include <string_view>
#include <vector>

#include "memory/planner.h"

namespace loupe::memory {

struct PlannerInfo {
  std::string_view name;
  std::string_view summary;
  PlannerFunction plan;
};

// In a fixed order: the greedy ones, then the searches.
const std::vector<PlannerInfo>& planners();
// nullptr when no algorithm has that name.
const PlannerInfo* findPlanner(std::string_view name);
// The algorithm used when the user names none.
inline constexpr std::string_view kDefaultPlanner = "branch_and_bound";

}  // namespace loupe::memory
