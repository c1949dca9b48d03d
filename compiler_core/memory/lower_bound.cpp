#include "memory/lower_bound.h"

#include <algorithm>

namespace loupe::memory {

std::vector<std::int64_t> liveBytesPerStep(const std::vector<WorkspaceBuffer>& buffers, int steps) {
  std::vector<std::int64_t> live(static_cast<std::size_t>(std::max(steps, 0)), 0);
  for (const WorkspaceBuffer& b : buffers) {
    for (int s = std::max(b.firstStep, 0); s <= b.lastStep && s < steps; ++s) {
      live[static_cast<std::size_t>(s)] += b.size;
    }
  }
  return live;
}

std::int64_t liveBytesLowerBound(const std::vector<WorkspaceBuffer>& buffers) {
  int steps = 0;
  for (const WorkspaceBuffer& b : buffers) steps = std::max(steps, b.lastStep + 1);
  const auto live = liveBytesPerStep(buffers, steps);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

}  // namespace loupe::memory
