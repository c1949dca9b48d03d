// Element strides of shapes, for the operators that walk tensors by index
// arithmetic (the reference kernels and the lowerings alike).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/tensor.h"

namespace loupe::ops {

// Row-major element strides of `shape`.
std::vector<std::int64_t> rowMajorStrides(const ir::Shape& shape);

// Each of `rank` output dimensions' element stride in `shape`, right-aligned
// as NumPy broadcasting aligns it: 0 where `shape` has length 1 there or
// lacks the dimension (and none for extra leading dimensions of `shape`).
std::vector<std::int64_t> broadcastStrides(const ir::Shape& shape, std::size_t rank);

}  // namespace loupe::ops
