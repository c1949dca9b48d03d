// What RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR share: an NHWC input
// resized to the constant [height, width] of the size operand, with
// TFLite's align_corners and half_pixel_centers flags.
#pragma once

#include <cstdint>
#include <string>

#include "ir/graph.h"

namespace loupe::ops {

struct ResizeGeometry {
  std::int32_t batches = 1, inHeight = 1, inWidth = 1, depth = 1;
  std::int32_t outHeight = 1, outWidth = 1;
  bool alignCorners = false, halfPixelCenters = false;
  ir::Shape outputShape;
  std::string problem;  // what the operator needs, when its operands contradict it
};

ResizeGeometry resizeGeometry(const ir::Graph& graph, const ir::Operator& op);

}  // namespace loupe::ops
