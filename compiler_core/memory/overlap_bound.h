// The lower bound of a plan whose operators may write their output partly
// over an input that dies at their step (tir/access_trace.h says how far
// each may): at every step the live buffers sit side by side except that one
// output may overlap one dying input by at most (output bytes - lag), up to
// the input's bytes. Next to the tensor-level bound (lower_bound.h) it says
// how much RAM overlapping buffers could save.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "memory/buffer_analysis.h"

namespace loupe::memory {

// The output of the operator at `step` may start `lagBytes` before the
// input buffer (or lower) and overlap it; with `leadBytes` >= 0 it may also
// start that far after the input's start (or higher) if the operator's
// function runs its outer loops backwards (tir/reverse_loops.h).
struct OverlapAllowance {
  int step = 0;
  int inputBuffer = -1;   // index into the buffers; its last step is `step`
  int outputBuffer = -1;  // its first step is `step`
  std::int64_t lagBytes = 0;
  std::int64_t leadBytes = -1;  // -1: not above the input

  // The most bytes the two may share.
  std::int64_t sharedBytes(const std::vector<WorkspaceBuffer>& buffers) const;
  // Whether the output may start at `outputOffset` with the input at
  // `inputOffset` (overlapping or not).
  bool allows(std::int64_t inputOffset, std::int64_t outputOffset,
              const std::vector<WorkspaceBuffer>& buffers) const;
  // The output starts above the input and overlaps it: the function must
  // run backwards.
  bool runsBackwards(std::int64_t inputOffset, std::int64_t outputOffset,
                     const std::vector<WorkspaceBuffer>& buffers) const;
  // The output starts at an offset x that this allowance forbids exactly
  // when lowest < x < highest, for an input at `inputOffset`.
  std::pair<std::int64_t, std::int64_t> forbiddenStarts(
      std::int64_t inputOffset, const std::vector<WorkspaceBuffer>& buffers) const;
};

// The bytes alive at each step less what that step's allowances let share
// (one output over one input per step: the allowance that shares most).
std::vector<std::int64_t> overlapBytesPerStep(const std::vector<WorkspaceBuffer>& buffers,
                                              const std::vector<OverlapAllowance>& allowances);

// The largest of those: the bound with overlaps.
std::int64_t overlapLowerBound(const std::vector<WorkspaceBuffer>& buffers,
                               const std::vector<OverlapAllowance>& allowances);

}  // namespace loupe::memory
