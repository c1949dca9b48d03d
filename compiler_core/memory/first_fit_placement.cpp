#include "memory/first_fit_placement.h"

#include <algorithm>
#include <numeric>

namespace loupe::memory {

FirstFitPlacement::FirstFitPlacement(const PlanProblem& problem)
    : problem_(problem),
      conflicts_(problem.buffers.size()),
      allowances_(problem.buffers.size()),
      pool_(problem.buffers.size(), -1),
      offset_(problem.buffers.size(), -1),
      poolBytes_(problem.pools.size(), 0) {
  const auto& buffers = problem.buffers;
  auto allowanceOf = [&](std::size_t a, std::size_t b) {
    for (std::size_t i = 0; i < problem.overlaps.size(); ++i) {
      const OverlapAllowance& o = problem.overlaps[i];
      if ((o.inputBuffer == static_cast<int>(a) && o.outputBuffer == static_cast<int>(b)) ||
          (o.inputBuffer == static_cast<int>(b) && o.outputBuffer == static_cast<int>(a))) {
        return static_cast<int>(i);
      }
    }
    return -1;
  };
  for (std::size_t a = 0; a < buffers.size(); ++a) {
    for (std::size_t b = a + 1; b < buffers.size(); ++b) {
      if (!memory::conflicts(buffers[a], buffers[b])) continue;
      const int allowance = problem.overlaps.empty() ? -1 : allowanceOf(a, b);
      conflicts_[a].push_back(static_cast<int>(b));
      conflicts_[b].push_back(static_cast<int>(a));
      allowances_[a].push_back(allowance);
      allowances_[b].push_back(allowance);
    }
  }
}

std::int64_t FirstFitPlacement::lowestOffset(int b, std::size_t pool) const {
  const MemoryPool& p = problem_.pools[pool];
  const std::int64_t size = problem_.buffers[static_cast<std::size_t>(b)].size;
  // Each placed buffer alive with `b` rules out b's body ending after
  // `begin` and starting before `end`: for an ordinary one, its own bytes.
  std::vector<std::pair<std::int64_t, std::int64_t>> taken;
  const auto& others = conflicts_[static_cast<std::size_t>(b)];
  for (std::size_t k = 0; k < others.size(); ++k) {
    const auto o = static_cast<std::size_t>(others[k]);
    if (pool_[o] != static_cast<int>(pool)) continue;
    const std::int64_t begin = offset_[o];
    const std::int64_t end = offset_[o] + problem_.buffers[o].size;
    const int allowance = allowances_[static_cast<std::size_t>(b)][k];
    if (allowance < 0) {
      taken.emplace_back(begin, end);
      continue;
    }
    const OverlapAllowance& a = problem_.overlaps[static_cast<std::size_t>(allowance)];
    if (a.outputBuffer == b) {
      // b, the output, may not start strictly between the allowance's
      // limits for the input where it is: as a taken range (lowest + size,
      // highest), which the scan below reads as "past `lowest`, move to
      // `highest`" even when it is empty (an output larger than the window).
      const auto [lowest, highest] = a.forbiddenStarts(begin, problem_.buffers);
      taken.emplace_back(lowest + size, highest);
    } else {
      // b, the input, at y forbids the placed output's start X when
      // lowest(y) < X < highest(y), with lowest(y) = y - l and highest(y) =
      // y + h: y may not lie in (X - h, X + l), so b's body may not cover
      // [X - h + size, X + l) - read by the scan as above.
      const auto [lowest, highest] = a.forbiddenStarts(0, problem_.buffers);
      taken.emplace_back(begin - highest + size, begin - lowest);
    }
  }
  std::sort(taken.begin(), taken.end());
  std::int64_t offset = 0;
  for (const auto& [begin, end] : taken) {
    if (offset + size <= begin) break;
    offset = std::max(offset, roundUp(end, p.alignment));
  }
  if (p.bounded() && offset + size > p.size) return -1;
  return offset;
}

std::int64_t FirstFitPlacement::lowestEnd(int b) const {
  for (std::size_t p = 0; p < problem_.pools.size(); ++p) {
    const std::int64_t offset = lowestOffset(b, p);
    if (offset >= 0) return offset + problem_.buffers[static_cast<std::size_t>(b)].size;
  }
  return -1;
}

bool FirstFitPlacement::place(int b) {
  const auto i = static_cast<std::size_t>(b);
  for (std::size_t p = 0; p < problem_.pools.size(); ++p) {
    const std::int64_t offset = lowestOffset(b, p);
    if (offset < 0) continue;
    history_.push_back({b, poolBytes_[p]});
    pool_[i] = static_cast<int>(p);
    offset_[i] = offset;
    const std::int64_t end = offset + problem_.buffers[i].size;
    if (end > poolBytes_[p]) {
      total_ += end - poolBytes_[p];
      poolBytes_[p] = end;
    }
    return true;
  }
  return false;
}

void FirstFitPlacement::unplace() {
  const Undo undo = history_.back();
  history_.pop_back();
  const auto i = static_cast<std::size_t>(undo.buffer);
  const auto p = static_cast<std::size_t>(pool_[i]);
  total_ -= poolBytes_[p] - undo.poolBytesBefore;
  poolBytes_[p] = undo.poolBytesBefore;
  pool_[i] = -1;
  offset_[i] = -1;
}

PlanResult FirstFitPlacement::result() const {
  PlanResult r;
  r.pool = pool_;
  r.offset = offset_;
  r.poolBytes = poolBytes_;
  r.totalBytes = total_;
  r.fits = std::all_of(pool_.begin(), pool_.end(), [](int p) { return p >= 0; });
  return r;
}

PlanResult placeInOrder(const PlanProblem& problem, const std::vector<int>& order) {
  FirstFitPlacement placement(problem);
  int unplaced = -1;
  std::int64_t unplacedBytes = 0;
  // Keeps going past a buffer that fits nowhere so the result says how much
  // is missing, not only where it started.
  for (int b : order) {
    if (placement.place(b)) continue;
    if (unplaced < 0) unplaced = b;
    unplacedBytes += problem.buffers[static_cast<std::size_t>(b)].size;
  }
  PlanResult r = placement.result();
  r.unplaced = unplaced;
  r.unplacedBytes = unplacedBytes;
  r.evaluated = 1;
  // Any plan needs at least the live bytes of every step, split over pools or not.
  r.provedOptimal = r.fits && r.totalBytes <= problem.lowerBound;
  return r;
}

std::vector<int> orderBySize(const PlanProblem& problem) {
  const auto& buffers = problem.buffers;
  std::vector<int> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  // Larger first; among equals the longer-lived, then the earlier - or,
  // when outputs may overlap their inputs, the later: an output placed first
  // leaves its input room to start above it.
  const bool laterFirst = !problem.overlaps.empty();
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto& x = buffers[static_cast<std::size_t>(a)];
    const auto& y = buffers[static_cast<std::size_t>(b)];
    if (x.size != y.size) return x.size > y.size;
    if (x.lastStep - x.firstStep != y.lastStep - y.firstStep) {
      return x.lastStep - x.firstStep > y.lastStep - y.firstStep;
    }
    return laterFirst && x.firstStep > y.firstStep;
  });
  return order;
}

std::vector<int> orderByConflicts(const PlanProblem& problem) {
  const auto& buffers = problem.buffers;
  // Bytes of the buffers each one conflicts with: the most constrained first.
  std::vector<std::int64_t> pressure(buffers.size(), 0);
  for (std::size_t a = 0; a < buffers.size(); ++a) {
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      if (a != b && conflicts(buffers[a], buffers[b])) pressure[a] += buffers[b].size;
    }
  }
  std::vector<int> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
    if (pressure[ia] + buffers[ia].size != pressure[ib] + buffers[ib].size) {
      return pressure[ia] + buffers[ia].size > pressure[ib] + buffers[ib].size;
    }
    return buffers[ia].size > buffers[ib].size;
  });
  return order;
}

OrderedPlan betterGreedyStart(const PlanProblem& problem) {
  OrderedPlan bySize{orderBySize(problem), {}};
  bySize.plan = placeInOrder(problem, bySize.order);
  OrderedPlan byConflicts{orderByConflicts(problem), {}};
  byConflicts.plan = placeInOrder(problem, byConflicts.order);
  return betterPlan(byConflicts.plan, bySize.plan) ? byConflicts : bySize;
}

}  // namespace loupe::memory
