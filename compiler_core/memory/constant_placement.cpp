#include "memory/constant_placement.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "ir/graph_printer.h"
#include "memory/memory_plan.h"

namespace loupe::memory {

namespace {

std::int64_t aligned(std::int64_t bytes) {
  return (bytes + kDefaultAlignment - 1) / kDefaultAlignment * kDefaultAlignment;
}

}  // namespace

ConstantPlacement placeConstants(const std::vector<ConstantArray>& arrays,
                                 const std::vector<MemoryRegion>& regions,
                                 const std::vector<std::int64_t>& used) {
  ConstantPlacement placement;
  placement.region.assign(arrays.size(), -1);
  placement.regionBytes.assign(regions.size(), 0);
  std::vector<std::size_t> order(arrays.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Hottest first; among equally hot arrays the larger first, so the small
  // ones fill what is left; then model order, for identical output.
  std::stable_sort(order.begin(), order.end(), [&arrays](std::size_t a, std::size_t b) {
    if (arrays[a].readsPerByte != arrays[b].readsPerByte)
      return arrays[a].readsPerByte > arrays[b].readsPerByte;
    return arrays[a].bytes > arrays[b].bytes;
  });
  auto freeBytes = [&](std::size_t r) {
    return regions[r].capacity - used.at(r) - placement.regionBytes[r];
  };
  std::int64_t unplaced = 0;
  for (std::size_t a : order) {
    const std::int64_t bytes = aligned(arrays[a].bytes);
    for (std::size_t r = 0; r < regions.size(); ++r) {
      if (!regions[r].holdsConstants || freeBytes(r) < bytes) continue;
      placement.region[a] = static_cast<int>(r);
      placement.regionBytes[r] += bytes;
      break;
    }
    if (placement.region[a] < 0) unplaced += bytes;
  }
  if (unplaced == 0) return placement;

  std::int64_t total = 0;
  for (const ConstantArray& array : arrays) total += aligned(array.bytes);
  std::ostringstream message;
  message << "the model's constants (" << ir::groupDigits(total)
          << " bytes of weights, biases and tables) do not fit the memories that may hold them, "
          << ir::groupDigits(unplaced) << " bytes short:";
  const char* separator = " ";
  for (std::size_t r = 0; r < regions.size(); ++r) {
    if (!regions[r].holdsConstants) continue;
    const std::int64_t free = freeBytes(r);
    message << separator << regions[r].name << " has " << ir::groupDigits(regions[r].capacity)
            << " bytes for the model";
    if (used.at(r) > 0) message << " (" << ir::groupDigits(used.at(r)) << " taken by workspace)";
    message << ", " << ir::groupDigits(placement.regionBytes[r]) << " of constants placed, "
            << ir::groupDigits(free) << " free";
    if (unplaced > free) {
      message << ": it would need " << ir::groupDigits(unplaced - free)
              << " bytes more to hold the rest";
    }
    separator = "; ";
  }
  throw MemoryPlanError(message.str(), unplaced);
}

}  // namespace loupe::memory
