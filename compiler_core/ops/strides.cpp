#include "ops/strides.h"

namespace loupe::ops {

std::vector<std::int64_t> rowMajorStrides(const ir::Shape& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

std::vector<std::int64_t> broadcastStrides(const ir::Shape& shape, std::size_t rank) {
  std::vector<std::int64_t> strides(rank, 0);
  std::int64_t stride = 1;
  for (std::size_t k = 0; k < shape.size() && k < rank; ++k) {
    const std::size_t dim = shape.size() - 1 - k;
    strides[rank - 1 - k] = shape[dim] == 1 ? 0 : stride;
    stride *= shape[dim];
  }
  return strides;
}

}  // namespace loupe::ops
