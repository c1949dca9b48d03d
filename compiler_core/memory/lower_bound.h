// The lower bound of a plan: at every step all buffers alive then must sit
// side by side, so no plan of these buffers can use fewer bytes than the
// largest sum of live bytes over the steps. A plan reports its gap to it.
#pragma once

#include <cstdint>
#include <vector>

#include "memory/buffer_analysis.h"

namespace loupe::memory {

// Bytes alive at each step 0 .. steps-1.
std::vector<std::int64_t> liveBytesPerStep(const std::vector<WorkspaceBuffer>& buffers, int steps);

std::int64_t liveBytesLowerBound(const std::vector<WorkspaceBuffer>& buffers);

}  // namespace loupe::memory
