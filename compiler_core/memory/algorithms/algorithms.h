// The planning algorithms, each a PlannerFunction (planner.h); the registry
// (planner_registry.h) lists them by name.
#pragma once

#include "memory/planner.h"

namespace loupe::memory {

// Largest buffer first, each at its lowest fitting offset.
PlanResult planGreedyBySize(const PlanProblem& problem);
// Most constrained buffer first: the one whose own bytes plus the bytes of the
// buffers alive with it are largest.
PlanResult planGreedyByConflicts(const PlanProblem& problem);
// From the better greedy order, swaps of two buffers kept when the plan does
// not grow; seeded, so the same problem and seed give the same plan.
PlanResult planHillClimb(const PlanProblem& problem);
// Depth-first search over placement orders with pruning; proves optimality
// when it finishes inside its budget, else returns its best.
PlanResult planBranchAndBound(const PlanProblem& problem);

}  // namespace loupe::memory
