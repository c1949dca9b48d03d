#include "ops/output_check.h"

#include "ir/graph_printer.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

std::optional<std::string> checkOutput(const ir::Tensor& output, ir::DType dtype,
                                       const ir::Shape& shape) {
  if (output.dtype == dtype && output.shape == shape) return std::nullopt;
  return "output " + tensorText(output) + "; expected " + std::string(ir::dtypeName(dtype)) +
         ir::shapeToString(shape);
}

}  // namespace loupe::ops
