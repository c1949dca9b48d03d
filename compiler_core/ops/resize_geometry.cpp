#include "ops/resize_geometry.h"

#include "ops/operator_options.h"
#include "ops/shape_rule.h"

namespace loupe::ops {

ResizeGeometry resizeGeometry(const ir::Graph& graph, const ir::Operator& op) {
  ResizeGeometry g;
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* size = graph.input(op, 1);
  if (input == nullptr || size == nullptr) return g.problem = "an input and a size", g;
  if (input->shape.size() != 4) {
    return g.problem = "a 4-D (NHWC) input, found " + tensorText(*input), g;
  }
  const auto sizes = constantOperand(graph, op, 1);
  // TFLM refuses a size computed at run time.
  if (!sizes || size->dtype != ir::DType::Int32 || size->shape.size() != 1 || sizes->size() != 2) {
    return g.problem = "a constant int32 size operand of 2 values [height, width], found " +
                       tensorText(*size),
           g;
  }
  if ((*sizes)[0] < 1 || (*sizes)[1] < 1) {
    return g.problem = "a positive size, found [" + std::to_string((*sizes)[0]) + ", " +
                       std::to_string((*sizes)[1]) + "]",
           g;
  }
  if (input->shape[1] < 1 || input->shape[2] < 1) {
    return g.problem = "an input with rows and columns, found " + tensorText(*input), g;
  }
  g.batches = input->shape[0];
  g.inHeight = input->shape[1];
  g.inWidth = input->shape[2];
  g.depth = input->shape[3];
  g.outHeight = static_cast<std::int32_t>((*sizes)[0]);
  g.outWidth = static_cast<std::int32_t>((*sizes)[1]);
  g.outputShape = {g.batches, g.outHeight, g.outWidth, g.depth};
  g.alignCorners = optionOf(op, "align_corners") != 0;
  g.halfPixelCenters = optionOf(op, "half_pixel_centers") != 0;
  return g;
}

}  // namespace loupe::ops
