#include "ir/tensor.h"

namespace loupe::ir {

std::int64_t elementCount(const Shape& shape) {
  std::int64_t count = 1;
  for (auto dim : shape) count *= dim;
  return count;
}

}  // namespace loupe::ir
