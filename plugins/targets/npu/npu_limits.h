// The limits of Loupe's NPU (Ethos-U55-like), as named constants: what
// npu_constraints checks an operator against before it is offloaded, and what
// the NPU back end (plugins/targets/npu) and the software NPU implement, no
// more. They follow the Ethos-U55's published operator support (Arm's Vela
// SUPPORTED_OPS) cut down to what Loupe's NPU model does; docs/npu_constraints.md
// is the same table for people. Change both together.
#pragma once

#include <cstdint>

namespace loupe::targets::npu {

// Spatial strides, per dimension (height and width).
inline constexpr int kMinStride = 1;
inline constexpr int kMaxStride = 3;
// Convolution dilation, per dimension.
inline constexpr int kMinDilation = 1;
inline constexpr int kMaxDilation = 2;
// Pooling window, per dimension.
inline constexpr int kMaxPoolKernel = 8;
// Convolution kernel after dilation ((k - 1) * d + 1), per dimension, and the
// kernel's height x width.
inline constexpr int kMaxConvKernel = 64;
inline constexpr std::int64_t kMaxConvKernelArea = 4096;
// Feature maps (input and output): batch, height, width, channels, rank.
inline constexpr std::int64_t kMaxBatch = 1;
inline constexpr std::int64_t kMaxFeatureMapHeight = 65536;
inline constexpr std::int64_t kMaxFeatureMapWidth = 65536;
inline constexpr std::int64_t kMaxChannels = 65536;
inline constexpr std::size_t kMaxRank = 4;
// Weights of one operator, in bytes (1 MiB).
inline constexpr std::int64_t kMaxWeightBytes = 1024 * 1024;
// Bias values are kept in 40 bits: |b| < 2^39.
inline constexpr std::int64_t kBiasMagnitudeLimit = std::int64_t{1} << 39;
// The largest shift TFLite's QuantizeMultiplier may give the effective scale
// (input scale x weight scale / output scale); smaller scales are flushed.
inline constexpr int kMaxRequantShift = 30;
// The depthwise convolution's channel multiplier.
inline constexpr int kDepthMultiplier = 1;

}  // namespace loupe::targets::npu
