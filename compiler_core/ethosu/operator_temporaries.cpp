#include "ethosu/operator_temporaries.h"

#include <algorithm>

namespace loupe::ethosu {

namespace {

std::uint64_t alignedBytes(const NpuFeatureMap& map) {
  constexpr std::uint64_t kAlignment = 16;
  return (map.bytes() + kAlignment - 1) / kAlignment * kAlignment;
}

}  // namespace

NpuFeatureMap OperatorTemporaries::allocate(int height, int width, int depth, int bits) {
  NpuFeatureMap map = NpuFeatureMap::nhwc(1, 0, height, width, depth, bits);
  map.home = NpuMapHome::Temporary;
  const std::uint64_t bytes = alignedBytes(map);
  const auto fits = std::find_if(free_.begin(), free_.end(),
                                 [bytes](const auto& block) { return block.second >= bytes; });
  if (fits == free_.end()) {
    map.base = end_;
    end_ += bytes;
  } else {
    map.base = fits->first;
    if (fits->second > bytes) {
      *fits = {fits->first + bytes, fits->second - bytes};
    } else {
      free_.erase(fits);
    }
  }
  return map;
}

void OperatorTemporaries::release(const NpuFeatureMap& map) {
  free_.push_back({map.base, alignedBytes(map)});
}

}  // namespace loupe::ethosu
