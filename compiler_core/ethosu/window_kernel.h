// The NPU kernel of a sliding-window operator (convolutions, pools): its
// extents, strides, dilations and padding from TFLite's window geometry.
// The NPU derives the IFM's extent from the OFM, the kernel and the
// padding, so padding after the last row or column is only what the
// windows reach past the IFM; along an OFM of one row or column the stride
// is 1 (it moves no window).
#pragma once

#include "ethosu/npu_operation.h"
#include "reference/quantized_params.h"

namespace loupe::ethosu {

// Throws std::invalid_argument saying what the NPU cannot do (a stride
// outside 1-3, a dilation outside 1-2, padding beyond its registers, a
// kernel beyond 64x64 when `convolution`, an OFM other than the windows').
NpuKernel windowKernel(const reference::WindowGeometry& geometry, const NpuFeatureMap& ifm,
                       const NpuFeatureMap& ofm, int height, int width, int strideY, int strideX,
                       int dilationY, int dilationX, bool convolution);

}  // namespace loupe::ethosu
