#include "ethosu/npu_operation.h"

namespace loupe::ethosu {

NpuFeatureMap NpuFeatureMap::nhwc(int region, std::uint64_t base, int height, int width, int depth,
                                  int bits) {
  NpuFeatureMap map;
  map.region = region;
  map.base = base;
  map.height = height;
  map.width = width;
  map.depth = depth;
  map.bits = bits;
  map.strideC = static_cast<std::uint64_t>(bits / 8);
  map.strideX = map.strideC * static_cast<std::uint64_t>(depth);
  map.strideY = map.strideX * static_cast<std::uint64_t>(width);
  return map;
}

NpuFeatureMap NpuFeatureMap::bricks(int region, std::uint64_t base, int height, int width,
                                    int depth, int bits) {
  NpuFeatureMap map = nhwc(region, base, height, width, depth, bits);
  map.nhcwb16 = true;
  const auto element = static_cast<std::uint64_t>(bits / 8);
  map.strideX = 16 * element;
  map.strideC = map.strideX * static_cast<std::uint64_t>(width);  // one brick
  map.strideY = map.strideC * static_cast<std::uint64_t>((depth + 15) / 16);
  return map;
}

std::uint64_t NpuFeatureMap::bytes() const {
  // A row's stride covers the row whatever the layout (NHCWB16: every brick).
  return strideY * static_cast<std::uint64_t>(height);
}

}  // namespace loupe::ethosu
