// One NPU operation, as the compiler describes it before it is written into a
// command stream (and as a stream is read back): the primitive, the block
// configuration, where the IFM, IFM2 and OFM lie (base-address region,
// offset, strides) with their zero points and scales, the kernel, where the
// encoded weight and scale streams lie, and the output clamp. The field
// meanings are those of docs/npu.md and loupe/npu_command_stream.h.
#pragma once

#include <cstdint>
#include <string_view>

#include "loupe/npu_command_stream.h"
#include "targets/npu/npu_config.h"

namespace loupe::npu {

enum class NpuOperationKind { Conv2D, DepthwiseConv2D, MaxPool, AveragePool, Add, Sub, Mul };

// "conv2d", "depthwise_conv2d", "max_pool", "average_pool", "add", "sub", "mul".
std::string_view operationKindName(NpuOperationKind kind);

bool usesKernel(NpuOperationKind kind);   // convolutions and pools
bool usesWeights(NpuOperationKind kind);  // convolutions: weight and scale streams
bool usesIfm2(NpuOperationKind kind);     // element-wise operations

// An int8 feature map: element (y, x, c) at offset + y*strideY + x*strideX + c*strideC
// of its region. multiplier/shift: the rescale of an element-wise input or output.
struct NpuFeatureMap {
  int region = 0;
  int height = 1, width = 1, depth = 1;
  std::uint32_t offset = 0;
  std::uint32_t strideY = 0, strideX = 0, strideC = 1;
  std::int32_t zeroPoint = 0;
  std::int32_t multiplier = 0;
  int shift = 0;
  bool operator==(const NpuFeatureMap&) const = default;
};

struct NpuKernel {
  int height = 1, width = 1;
  int strideY = 1, strideX = 1;
  int dilationY = 1, dilationX = 1;
  int padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  bool operator==(const NpuKernel&) const = default;
};

struct NpuStreamRef {
  int region = LOUPE_NPU_REGION_CONSTANTS;
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  bool operator==(const NpuStreamRef&) const = default;
};

struct NpuOperation {
  NpuOperationKind kind = NpuOperationKind::Conv2D;
  BlockConfig block;
  NpuFeatureMap ifm;
  NpuFeatureMap ifm2;  // element-wise operations only
  NpuFeatureMap ofm;
  NpuKernel kernel;      // convolutions and pools only
  NpuStreamRef weights;  // convolutions only
  NpuStreamRef scales;   // convolutions only
  int activationMin = -128, activationMax = 127;
  int rounding = LOUPE_NPU_ROUNDING_TFLITE;
  int elementwiseLeftShift = 0;  // ADD and SUB only
  bool operator==(const NpuOperation&) const = default;
};

// A contiguous NHWC int8 feature map of height x width x depth at offset 0 of `region`.
NpuFeatureMap contiguousFeatureMap(int region, int height, int width, int depth);

}  // namespace loupe::npu
