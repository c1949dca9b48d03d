// Loupe's encoder of the Ethos-U weight format (Vela's mlw): what the NPU's
// weight decoder reads, and what the functional model's decoder
// (loupe/ethosu/ethosu_weights.h) turns back into values. A stream is slices
// of at most 32,767 values, each with its own header; a value is sent as an
// index (into a palette of up to 32 frequent values, or past it, offset) in
// Golomb-Rice code (a unary quotient, in two-bit steps, and a binary
// remainder of w_div bits) or, when that is no shorter, in fixed width. Each
// slice gets the palette and code that make it shortest. Zero runs (the
// format's separate code for runs of zeros) are not used: every slice says
// so in its header, which the format allows. The stream ends with the
// end-of-stream marker and 0xff padding to 16 bytes, as the DMA reads it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace loupe::ethosu {

// The values a weight stream carries: zero-point corrected weights.
inline constexpr int kMlwMinValue = -255;
inline constexpr int kMlwMaxValue = 255;
inline constexpr int kMlwMaxSliceValues = 32767;

// `values` (in the NPU's brick order, weight_stream.h) as an mlw stream, a
// multiple of 16 bytes. Throws std::invalid_argument for a value outside
// kMlwMinValue..kMlwMaxValue.
std::vector<std::uint8_t> encodeMlw(std::span<const std::int16_t> values);

}  // namespace loupe::ethosu
