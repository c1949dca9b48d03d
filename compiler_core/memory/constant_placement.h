// Where each constant array of a compiled model goes among the board's
// memories that may hold constants (TVM's constant pools): the arrays the
// model reads most often per byte - a convolution's filter, read once per
// output pixel - go to the fastest memory with room, the rest spill to slower
// ones in order. Room is what the workspace pools left of each memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/memory_region.h"

namespace loupe::memory {

struct ConstantArray {
  std::string name;  // for messages: the function's constant
  std::int64_t bytes = 0;
  // Reads of each byte per run (the operator's multiply-accumulates per
  // constant byte): the higher, the more a fast memory pays off.
  double readsPerByte = 0;
};

struct ConstantPlacement {
  std::vector<int> region;                // per array: index into the regions
  std::vector<std::int64_t> regionBytes;  // per region: bytes of constants placed there
};

// Places `arrays` in the regions that hold constants, hottest first, each in
// the fastest region it still fits (16-byte aligned). `used`: bytes of each
// region the workspace pools already take. Throws MemoryPlanError (its
// message says every region's size, what it holds and the bytes missing)
// when some array fits nowhere.
ConstantPlacement placeConstants(const std::vector<ConstantArray>& arrays,
                                 const std::vector<MemoryRegion>& regions,
                                 const std::vector<std::int64_t>& used);

}  // namespace loupe::memory
