#include "memory/overlap_bound.h"

#include <algorithm>

#include "memory/lower_bound.h"

namespace loupe::memory {

std::int64_t OverlapAllowance::sharedBytes(const std::vector<WorkspaceBuffer>& buffers) const {
  const WorkspaceBuffer& in = buffers.at(static_cast<std::size_t>(inputBuffer));
  const WorkspaceBuffer& out = buffers.at(static_cast<std::size_t>(outputBuffer));
  return std::max<std::int64_t>(0, std::min(out.size - lagBytes, in.size));
}

std::int64_t overlapLowerBound(const std::vector<WorkspaceBuffer>& buffers,
                               const std::vector<OverlapAllowance>& allowances) {
  int steps = 0;
  for (const WorkspaceBuffer& b : buffers) steps = std::max(steps, b.lastStep + 1);
  std::vector<std::int64_t> live = liveBytesPerStep(buffers, steps);
  // One output over one input per step: the allowance that shares most.
  std::vector<std::int64_t> saving(live.size(), 0);
  for (const OverlapAllowance& a : allowances) {
    if (a.step < 0 || static_cast<std::size_t>(a.step) >= saving.size()) continue;
    saving[static_cast<std::size_t>(a.step)] =
        std::max(saving[static_cast<std::size_t>(a.step)], a.sharedBytes(buffers));
  }
  std::int64_t bound = 0;
  for (std::size_t s = 0; s < live.size(); ++s) bound = std::max(bound, live[s] - saving[s]);
  return bound;
}

}  // namespace loupe::memory
