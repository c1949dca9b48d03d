#include "memory/overlap_bound.h"

#include <algorithm>

#include "memory/lower_bound.h"

namespace loupe::memory {

std::int64_t OverlapAllowance::sharedBytes(const std::vector<WorkspaceBuffer>& buffers) const {
  const WorkspaceBuffer& in = buffers.at(static_cast<std::size_t>(inputBuffer));
  const WorkspaceBuffer& out = buffers.at(static_cast<std::size_t>(outputBuffer));
  const std::int64_t below = std::min(out.size - lagBytes, in.size);
  const std::int64_t above = leadBytes >= 0 ? std::min(in.size - leadBytes, out.size) : 0;
  return std::max<std::int64_t>({0, below, above});
}

std::pair<std::int64_t, std::int64_t> OverlapAllowance::forbiddenStarts(
    std::int64_t inputOffset, const std::vector<WorkspaceBuffer>& buffers) const {
  const WorkspaceBuffer& in = buffers.at(static_cast<std::size_t>(inputBuffer));
  const WorkspaceBuffer& out = buffers.at(static_cast<std::size_t>(outputBuffer));
  // Allowed: wholly below (end at the input's start) or `lagBytes` before
  // it; wholly above (from the input's end) or, backwards, `leadBytes` after.
  const std::int64_t lowest = inputOffset - std::min(lagBytes, out.size);
  const std::int64_t highest =
      inputOffset + (leadBytes >= 0 ? std::min(leadBytes, in.size) : in.size);
  return {lowest, highest};
}

bool OverlapAllowance::allows(std::int64_t inputOffset, std::int64_t outputOffset,
                              const std::vector<WorkspaceBuffer>& buffers) const {
  const auto [lowest, highest] = forbiddenStarts(inputOffset, buffers);
  return outputOffset <= lowest || outputOffset >= highest;
}

bool OverlapAllowance::runsBackwards(std::int64_t inputOffset, std::int64_t outputOffset,
                                     const std::vector<WorkspaceBuffer>& buffers) const {
  const WorkspaceBuffer& in = buffers.at(static_cast<std::size_t>(inputBuffer));
  return leadBytes >= 0 && outputOffset > inputOffset && outputOffset < inputOffset + in.size;
}

std::vector<std::int64_t> overlapBytesPerStep(const std::vector<WorkspaceBuffer>& buffers,
                                              const std::vector<OverlapAllowance>& allowances) {
  int steps = 0;
  for (const WorkspaceBuffer& b : buffers) steps = std::max(steps, b.lastStep + 1);
  std::vector<std::int64_t> live = liveBytesPerStep(buffers, steps);
  std::vector<std::int64_t> saving(live.size(), 0);
  for (const OverlapAllowance& a : allowances) {
    if (a.step < 0 || static_cast<std::size_t>(a.step) >= saving.size()) continue;
    saving[static_cast<std::size_t>(a.step)] =
        std::max(saving[static_cast<std::size_t>(a.step)], a.sharedBytes(buffers));
  }
  for (std::size_t s = 0; s < live.size(); ++s) live[s] -= saving[s];
  return live;
}

std::int64_t overlapLowerBound(const std::vector<WorkspaceBuffer>& buffers,
                               const std::vector<OverlapAllowance>& allowances) {
  const std::vector<std::int64_t> bytes = overlapBytesPerStep(buffers, allowances);
  return bytes.empty() ? 0 : *std::max_element(bytes.begin(), bytes.end());
}

}  // namespace loupe::memory
