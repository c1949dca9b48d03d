// One NPU operation's weights and scales as the Ethos-U reads them: the
// weights (OHWI, zero-point corrected) put in the NPU's brick order for the
// operation's block depth and micro-block geometry, the order the
// functional model's block decoder undoes (loupe/ethosu/ethosu_weights.h),
// padding included, then mlw-encoded (mlw_encoder.h); and each output
// channel's 10-byte record of bias, scale and shift.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "loupe/ethosu/ethosu_weights.h"

namespace loupe::ethosu {

// `ohwi` (layout.ofm_depth * kernel_height * kernel_width * ifm_depth
// values) in brick order: per OFM block, per IFM block, per sub-kernel, per
// micro-block, zeros where the bricks reach past the weights. Throws
// std::invalid_argument for a layout the decoder refuses or a size that
// does not match it.
std::vector<std::int16_t> weightsInBrickOrder(const loupe_ethosu_weight_layout& layout,
                                              std::span<const std::int16_t> ohwi);

// The weight stream of `ohwi`: weightsInBrickOrder, mlw-encoded.
std::vector<std::uint8_t> encodeWeightStream(const loupe_ethosu_weight_layout& layout,
                                             std::span<const std::int16_t> ohwi);

// One output channel's record: a 40-bit signed bias, a 32-bit scale and a
// 6-bit shift (the output is (accumulator * scale) >> shift). Throws
// std::invalid_argument for a bias or shift that does not fit.
struct ChannelScale {
  std::int64_t bias = 0;
  std::uint32_t scale = 0;
  int shift = 0;
};
void appendScaleRecord(std::vector<std::uint8_t>& stream, const ChannelScale& channel);

}  // namespace loupe::ethosu
