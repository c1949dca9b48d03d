// Affine quantisation of a tensor: real = scale * (q - zero_point), either one
// (scale, zero point) for the whole tensor or one per channel along
// `quantizedDimension` (per-channel int8 weights).
#pragma once

#include <cstdint>
#include <vector>

namespace loupe::ir {

struct Quantization {
  std::vector<float> scales;
  std::vector<std::int64_t> zeroPoints;
  std::int32_t quantizedDimension = 0;

  bool isQuantized() const { return !scales.empty(); }
  bool isPerChannel() const { return scales.size() > 1; }
  float scale() const { return scales.empty() ? 0.0f : scales.front(); }
  std::int32_t zeroPoint() const {
    return zeroPoints.empty() ? 0 : static_cast<std::int32_t>(zeroPoints.front());
  }
  bool operator==(const Quantization&) const = default;
};

}  // namespace loupe::ir
