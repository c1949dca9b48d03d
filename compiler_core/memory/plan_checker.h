// Checks a finished plan independently of the algorithm that made it: every
// buffer inside its pool at an aligned offset, and no two buffers alive at a
// common step overlapping in the same pool (aliases share one buffer, so they
// never appear as two). Runs on every compile and in the tests of every
// algorithm; an empty result means the plan is sound.
#pragma once

#include <string>
#include <vector>

#include "memory/planner.h"

namespace loupe::memory {

std::vector<std::string> checkPlan(const PlanProblem& problem, const PlanResult& plan);

// Checks the analysis the plan rests on: every alias lives within its
// buffer's lifetime.
std::vector<std::string> checkAliases(const WorkspaceAnalysis& analysis);

}  // namespace loupe::memory
