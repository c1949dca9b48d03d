// Places buffers one at a time, in an order an algorithm chooses, each at the
// lowest aligned offset of the first pool where it overlaps no buffer already
// placed that is alive at a common step - except an output over the input
// that dies with it, as far as the problem's overlap allowances let it.
// Every algorithm here is a way of choosing the order: for a single pool,
// placing buffers in the order of their offsets in any optimal plan gives a
// plan no larger, so searching orders can find the optimum.
#pragma once

#include <cstdint>
#include <vector>

#include "memory/planner.h"

namespace loupe::memory {

class FirstFitPlacement {
 public:
  explicit FirstFitPlacement(const PlanProblem& problem);

  // Places buffer `b`; false (and nothing changes) when it fits in no pool.
  bool place(int b);
  // Undoes the last place().
  void unplace();
  bool isPlaced(int b) const { return pool_[static_cast<std::size_t>(b)] >= 0; }

  // The offset `b` would get in `pool` now, or -1 when it does not fit there.
  std::int64_t lowestOffset(int b, std::size_t pool) const;
  // The end `b` would reach in its first fitting pool now, or -1 when it does
  // not fit. It never decreases as more buffers are placed.
  std::int64_t lowestEnd(int b) const;

  std::int64_t totalBytes() const { return total_; }
  const std::vector<std::vector<int>>& conflicts() const { return conflicts_; }
  PlanResult result() const;

 private:
  const PlanProblem& problem_;
  std::vector<std::vector<int>> conflicts_;  // per buffer: buffers alive at a common step
  // Per buffer, parallel to conflicts_: the allowance it shares with that
  // buffer (index into problem.overlaps), or -1.
  std::vector<std::vector<int>> allowances_;
  std::vector<int> pool_;
  std::vector<std::int64_t> offset_;
  std::vector<std::int64_t> poolBytes_;
  std::int64_t total_ = 0;
  struct Undo {
    int buffer;
    std::int64_t poolBytesBefore;
  };
  std::vector<Undo> history_;
};

// Places the buffers in `order`; a plan that does not fit names the first
// buffer that found no place.
PlanResult placeInOrder(const PlanProblem& problem, const std::vector<int>& order);

// Orders used by the greedy algorithms and as starting points of the searches.
std::vector<int> orderBySize(const PlanProblem& problem);
std::vector<int> orderByConflicts(const PlanProblem& problem);

// The better of the two greedy orders (by size unless by conflicts places
// strictly better) and its plan: where the searches start.
struct OrderedPlan {
  std::vector<int> order;
  PlanResult plan;
};
OrderedPlan betterGreedyStart(const PlanProblem& problem);

}  // namespace loupe::memory
