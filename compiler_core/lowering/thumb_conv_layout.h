// The filter layout of the plain Thumb convolution kernel
// (loupe_conv_pixel_s8_thumb_smlal in loupe/thumb_conv_kernels.h, which
// describes it): one word per tap for each group of four channels, the first
// and third channels' weights offset by 128 so that two SMLAL lanes can be
// masked out of the word.
#pragma once

#include <cstdint>
#include <vector>

namespace loupe::lowering {

std::vector<std::int8_t> thumbConvFilterLayout(const std::vector<std::int8_t>& rows, int channels,
                                               int length);

}  // namespace loupe::lowering
