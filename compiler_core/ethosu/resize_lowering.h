// RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR of int8 maps as the NPU runs
// them (Vela's fixup_resize): one operation over the input upscaled x2,
// each element repeated 2x2 (NEAREST), that picks or averages what the
// resize samples. The zero points are 0 and nothing is rescaled: TFLite
// Micro resizes the int8 values as they are, whatever the quantisation.
//  - nearest neighbour to twice the size (either half_pixel_centers): a 1x1
//    average pool, a copy of the upscaled map;
//  - nearest neighbour with align_corners, (in - 1) * 2 + 1: a 2x2
//    depthwise convolution whose one weight (1, at the bottom right) picks
//    the upscaled element after each output's, rounding half up;
//  - bilinear to twice the size: a 2x2 average pool padded one row and
//    column after (the edge averages the last element with itself), with
//    align_corners to (in - 1) * 2 + 1 unpadded. TFLite Micro's 10-bit
//    weights are then 1 or 1/2 per axis, and its rounding half away from
//    zero the NPU average's;
//  - an output of the input's size: a 1x1 average pool, a copy;
//  - four or eight times the size, as Vela chains them: x2 upscalings into
//    maps of the operator's own (1x1 pools, nearest neighbour) up to half
//    the size, then the last x2 as above, a bilinear pool 4x4 or 8x8 (its
//    average weighs each input as the bilinear resize does).
// Nearest neighbour with align_corners by 4 or 8 (each output picks the
// middle of its block), bilinear half_pixel_centers (four depthwise
// convolutions with edge-replicating tile padding) and a 1x1 input
// broadcast (an element-wise ADD of zeros) are refused.
#pragma once

#include "ethosu/convolution_lowering.h"

namespace loupe::ethosu {

bool isResize(const ir::Operator& op);

// The NPU operations lowerResize gives resize `op`: one, and one more for
// each x2 upscaling before the last (by 4: 2, by 8: 3).
int resizeNpuOperations(const ir::Graph& graph, const ir::Operator& op);

// `ifm` and `ofm` where the caller keeps the input and output. Throws
// NpuLoweringError naming the operator and what the NPU cannot do.
LoweredOperation lowerResize(const ir::Graph& graph, const ir::Operator& op,
                             const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                             const NpuFeatureMap& ofm);

}  // namespace loupe::ethosu
