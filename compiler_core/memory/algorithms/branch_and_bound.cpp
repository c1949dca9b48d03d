// Exact search over placement orders. With one pool, placing the buffers in
// the order of their offsets in an optimal plan reproduces a plan at least as
// small (first_fit_placement.h), so exploring every order finds the optimum.
// Three prunings keep that tractable:
//   - a node's bound: the bytes already used, the lower bound of the
//     problem, and the end every unplaced buffer would reach now (placing
//     more buffers only pushes it higher); at or above the best plan found,
//     the node is dropped;
//   - a buffer that fits in no pool now never will below this node;
//   - two buffers that are not alive together place the same whichever goes
//     first, so of adjacent independent buffers only the lower index goes first.
// The first incumbent is the better greedy plan improved by a short hill
// climb: the better it starts, the more the bound prunes. With overlapping
// outputs that matters most - largest-first search spends its whole budget
// under orders that put an output above its input (vww: 46,144 bytes from the
// greedy start alone, 36,928 - the bound - with the climb).
#include <algorithm>
#include <chrono>

#include "memory/algorithms/algorithms.h"
#include "memory/first_fit_placement.h"

namespace loupe::memory {

namespace {

// Climbs at most this many swaps before the search: a few milliseconds.
constexpr std::int64_t kStartingClimb = 2000;

PlanResult startingPlan(const PlanProblem& problem) {
  PlanResult greedy = betterGreedyStart(problem).plan;
  if (greedy.fits && greedy.totalBytes <= problem.lowerBound) return greedy;
  PlanProblem climb = problem;
  climb.searchBudget = std::min(problem.searchBudget, kStartingClimb);
  climb.timeBudgetSeconds = problem.timeBudgetSeconds / 10;
  PlanResult climbed = planHillClimb(climb);
  return betterPlan(climbed, greedy) ? climbed : greedy;
}

class Search {
 public:
  explicit Search(const PlanProblem& problem)
      : problem_(problem),
        placement_(problem),
        rank_(orderBySize(problem)),
        best_(startingPlan(problem)),
        start_(std::chrono::steady_clock::now()) {}

  PlanResult run() {
    const bool singlePool = problem_.pools.size() == 1;
    if (!(best_.fits && best_.totalBytes <= problem_.lowerBound)) descend(0, -1);
    best_.evaluated = nodes_;
    // With several pools first-fit does not try every pool assignment, so only
    // reaching the lower bound proves optimality there.
    best_.provedOptimal =
        best_.fits && (best_.totalBytes <= problem_.lowerBound || (singlePool && !aborted_));
    return best_;
  }

 private:
  bool finished() const { return done_ || aborted_; }

  void descend(std::size_t depth, int last) {
    if (finished()) return;
    if (++nodes_ > problem_.searchBudget ||
        ((nodes_ & 255) == 0 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >
             problem_.timeBudgetSeconds)) {
      aborted_ = true;
      return;
    }
    const std::size_t n = rank_.size();
    if (depth == n) {
      PlanResult r = placement_.result();
      if (!best_.fits || r.totalBytes < best_.totalBytes) best_ = r;
      done_ = best_.totalBytes <= problem_.lowerBound;
      return;
    }
    std::int64_t bound = std::max(placement_.totalBytes(), problem_.lowerBound);
    for (int b : rank_) {
      if (placement_.isPlaced(b)) continue;
      const std::int64_t end = placement_.lowestEnd(b);
      if (end < 0) return;  // fits nowhere now, so nowhere below this node
      if (problem_.pools.size() == 1) bound = std::max(bound, end);
    }
    if (best_.fits && bound >= best_.totalBytes) return;
    const auto& conflicts = placement_.conflicts();
    for (int b : rank_) {
      if (placement_.isPlaced(b)) continue;
      if (last >= 0 && b < last && !isConflict(conflicts, last, b)) continue;
      if (!placement_.place(b)) continue;
      descend(depth + 1, b);
      placement_.unplace();
      if (finished()) return;
    }
  }

  static bool isConflict(const std::vector<std::vector<int>>& conflicts, int a, int b) {
    for (int c : conflicts[static_cast<std::size_t>(a)]) {
      if (c == b) return true;
    }
    return false;
  }

  const PlanProblem& problem_;
  FirstFitPlacement placement_;
  std::vector<int> rank_;  // the order children are tried in: largest first
  PlanResult best_;
  std::chrono::steady_clock::time_point start_;
  std::int64_t nodes_ = 0;
  bool done_ = false;
  bool aborted_ = false;
};

}  // namespace

PlanResult planBranchAndBound(const PlanProblem& problem) {
  return Search(problem).run();
}

}  // namespace loupe::memory
