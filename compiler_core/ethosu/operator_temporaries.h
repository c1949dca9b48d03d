// The maps an operator keeps between its own NPU operations (a SOFTMAX's
// chain, a resize's x2 steps): NHWC maps of home Temporary in one scratch
// block of the operator's (LoweredOperation::temporaryBytes), each on 16
// bytes as Vela places maps, a new map taking the first released one that
// holds it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ethosu/npu_operation.h"

namespace loupe::ethosu {

class OperatorTemporaries {
 public:
  // A height x width x depth map of `bits` in the block.
  NpuFeatureMap allocate(int height, int width, int depth, int bits = 8);
  // `map`'s bytes are free for the maps allocated after this.
  void release(const NpuFeatureMap& map);
  // The block's bytes: the most the maps ever took at once.
  std::int64_t bytes() const { return static_cast<std::int64_t>(end_); }

 private:
  std::uint64_t end_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> free_;  // offset, bytes
};

}  // namespace loupe::ethosu
