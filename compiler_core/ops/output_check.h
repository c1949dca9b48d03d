// The check the operators' kernels end with: output 0 has the element type
// and shape the operator's plan derives.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"

namespace loupe::ops {

// "output tensor 3 'out' int8[1,2]; expected int8[1,4]" when `output` is not
// of `dtype` and `shape`, else nullopt.
std::optional<std::string> checkOutput(const ir::Tensor& output, ir::DType dtype,
                                       const ir::Shape& shape);

}  // namespace loupe::ops
