// Checks a finished plan independently of the algorithm that made it: every
// buffer inside its pool at an aligned offset, and no two buffers alive at a
// common step overlapping in the same pool (aliases share one buffer, so they
// never appear as two), unless an operator's traced accesses allow it. Runs on every compile and in
// the tests of every algorithm; an empty result means the plan is sound.
#pragma once

#include <string>
#include <vector>

#include "memory/overlap_bound.h"
#include "memory/planner.h"

namespace loupe::memory {

// `allowances` (overlap_bound.h, from tracing each operator's loops) are the
// only overlaps it accepts: an output over its dying input when it starts at
// least the allowance's lag before the input, so no store of the output
// lands on an input byte still to be read. Any other overlap is refused.
std::vector<std::string> checkPlan(const PlanProblem& problem, const PlanResult& plan,
                                   const std::vector<OverlapAllowance>& allowances = {});

// Checks the analysis the plan rests on: every alias lives within its
// buffer's lifetime.
std::vector<std::string> checkAliases(const WorkspaceAnalysis& analysis);

}  // namespace loupe::memory
