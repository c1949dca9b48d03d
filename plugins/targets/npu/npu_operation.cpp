#include "targets/npu/npu_operation.h"

namespace loupe::npu {

std::string_view operationKindName(NpuOperationKind kind) {
  switch (kind) {
    case NpuOperationKind::Conv2D:
      return "conv2d";
    case NpuOperationKind::DepthwiseConv2D:
      return "depthwise_conv2d";
    case NpuOperationKind::MaxPool:
      return "max_pool";
    case NpuOperationKind::AveragePool:
      return "average_pool";
    case NpuOperationKind::Add:
      return "add";
    case NpuOperationKind::Sub:
      return "sub";
    case NpuOperationKind::Mul:
      return "mul";
  }
  return "?";
}

bool usesKernel(NpuOperationKind kind) {
  return kind == NpuOperationKind::Conv2D || kind == NpuOperationKind::DepthwiseConv2D ||
         kind == NpuOperationKind::MaxPool || kind == NpuOperationKind::AveragePool;
}

bool usesWeights(NpuOperationKind kind) {
  return kind == NpuOperationKind::Conv2D || kind == NpuOperationKind::DepthwiseConv2D;
}

bool usesIfm2(NpuOperationKind kind) {
  return kind == NpuOperationKind::Add || kind == NpuOperationKind::Sub ||
         kind == NpuOperationKind::Mul;
}

NpuFeatureMap contiguousFeatureMap(int region, int height, int width, int depth) {
  NpuFeatureMap map;
  map.region = region;
  map.height = height;
  map.width = width;
  map.depth = depth;
  map.strideC = 1;
  map.strideX = static_cast<std::uint32_t>(depth);
  map.strideY = static_cast<std::uint32_t>(width) * static_cast<std::uint32_t>(depth);
  return map;
}

}  // namespace loupe::npu
