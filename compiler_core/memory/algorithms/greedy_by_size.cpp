#include "memory/algorithms/algorithms.h"
#include "memory/first_fit_placement.h"

namespace loupe::memory {

PlanResult planGreedyBySize(const PlanProblem& problem) {
  return placeInOrder(problem, orderBySize(problem));
}

}  // namespace loupe::memory
