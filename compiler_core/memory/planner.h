// The one interface every planning algorithm implements (as TVM's USMP
// algorithms do): buffers and pools in, a pool and an offset per buffer out.
// An algorithm is a pure function registered by name (planner_registry.h) so
// the CLI, the GUI and the tests can list and compare them without knowing
// any of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/buffer_analysis.h"
#include "memory/memory_pools.h"
#include "memory/overlap_bound.h"

namespace loupe::memory {

struct PlanProblem {
  std::vector<WorkspaceBuffer> buffers;
  std::vector<MemoryPool> pools;  // fastest first
  std::int64_t lowerBound = 0;    // liveBytesLowerBound(buffers); a search stops when it reaches it
  // Outputs that may start inside the input that dies with them, at least
  // lagBytes before it (the bound above is then overlapLowerBound).
  std::vector<OverlapAllowance> overlaps;
  std::uint64_t seed = 1;  // for randomised algorithms (deterministic per seed)
  // Work limits of the searching algorithms: candidate plans evaluated
  // (deterministic) and wall time (a safety net on slow machines).
  std::int64_t searchBudget = 20000;
  double timeBudgetSeconds = 1.0;
};

struct PlanResult {
  bool fits = false;                    // every buffer got a place inside its pool
  std::vector<int> pool;                // per buffer: index into the pools (-1: not placed)
  std::vector<std::int64_t> offset;     // per buffer: bytes from the pool's start
  std::vector<std::int64_t> poolBytes;  // per pool: the highest end of a buffer in it
  std::int64_t totalBytes = 0;          // the sum of poolBytes
  int unplaced = -1;                    // when !fits: the first buffer that fitted in no pool
  std::int64_t unplacedBytes = 0;       // when !fits: bytes of all buffers left out
  // Whether the algorithm proved no plan of these buffers is smaller: it
  // reached the lower bound, or (exact search) explored every alternative.
  bool provedOptimal = false;
  std::int64_t evaluated = 0;  // candidate plans or search nodes evaluated
};

// Whether `a` is the better plan: fewer bytes left out, then fewer in all.
inline bool betterPlan(const PlanResult& a, const PlanResult& b) {
  if (a.unplacedBytes != b.unplacedBytes) return a.unplacedBytes < b.unplacedBytes;
  return a.totalBytes < b.totalBytes;
}

using PlannerFunction = PlanResult (*)(const PlanProblem& problem);

}  // namespace loupe::memory
