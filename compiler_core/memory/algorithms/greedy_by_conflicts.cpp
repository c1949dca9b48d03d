#include "memory/algorithms/algorithms.h"
#include "memory/first_fit_placement.h"

namespace loupe::memory {

PlanResult planGreedyByConflicts(const PlanProblem& problem) {
  return placeInOrder(problem, orderByConflicts(problem));
}

}  // namespace loupe::memory
