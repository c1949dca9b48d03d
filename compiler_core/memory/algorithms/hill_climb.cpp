#include <chrono>
#include <random>

#include "memory/algorithms/algorithms.h"
#include "memory/first_fit_placement.h"

namespace loupe::memory {

PlanResult planHillClimb(const PlanProblem& problem) {
  const auto start = std::chrono::steady_clock::now();
  auto [order, current] = betterGreedyStart(problem);
  PlanResult best = current;
  std::int64_t evaluated = 2;
  const std::size_t n = order.size();
  // std::mt19937_64 is specified bit for bit, and the modulo below is ours,
  // so the sequence of swaps is the same on every platform.
  std::mt19937_64 random(problem.seed);
  while (n >= 2 && evaluated < problem.searchBudget &&
         !(best.fits && best.totalBytes <= problem.lowerBound)) {
    if ((evaluated & 63) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            problem.timeBudgetSeconds) {
      break;
    }
    const std::size_t i = random() % n;
    const std::size_t j = (i + 1 + random() % (n - 1)) % n;
    std::swap(order[i], order[j]);
    PlanResult candidate = placeInOrder(problem, order);
    ++evaluated;
    // Sideways moves are kept: plateaus are common and must be crossed.
    if (!betterPlan(current, candidate)) {
      current = std::move(candidate);
      if (betterPlan(current, best)) best = current;
    } else {
      std::swap(order[i], order[j]);
    }
  }
  best.evaluated = evaluated;
  best.provedOptimal = best.fits && best.totalBytes <= problem.lowerBound;
  return best;
}

}  // namespace loupe::memory
