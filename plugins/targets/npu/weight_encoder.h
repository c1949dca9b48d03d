// Encoding of an NPU convolution's constants (docs/npu.md): the int8 weights
// reordered into the order the NPU reads them and compressed losslessly, one
// sub-stream per block of OFM channels (zero runs and values with
// Golomb-Rice codes, the cheapest parameters chosen per sub-stream, or the
// bytes as they are when no code is shorter), and the
// scale stream of per-channel bias, multiplier and shift records. The format
// constants are shared with the runtime's decoder (loupe/npu_weight_stream.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace loupe::npu {

// Weights of a convolution as OHWI: [ofmDepth][kernelHeight][kernelWidth][ifmDepth]
// (ifmDepth 1 for a depthwise convolution, whose channel o reads IFM channel o).
struct WeightShape {
  int ofmDepth = 1;
  int kernelHeight = 1, kernelWidth = 1;
  int ifmDepth = 1;
  // OFM channels per sub-stream: the depth of the operation's block configuration.
  int blockDepth = 1;
  std::int64_t count() const {
    return std::int64_t{ofmDepth} * kernelHeight * kernelWidth * ifmDepth;
  }
};

// The OHWI index of each weight of the sub-stream of OFM channels
// [firstChannel, firstChannel + channels), in the order the NPU reads them:
// kernel row, column, IFM channel, OFM channel innermost. The encoder and the
// decoder both walk this one order.
std::vector<std::size_t> npuReadingOrder(const WeightShape& shape, int firstChannel, int channels);

// The compressed weight stream of `ohwi` (shape.count() values). Throws
// std::invalid_argument when the count does not match or a sub-stream would
// exceed LOUPE_NPU_WEIGHT_MAX_SUBSTREAM_VALUES.
std::vector<std::uint8_t> encodeWeights(std::span<const std::int8_t> ohwi,
                                        const WeightShape& shape);

// One OFM channel's requantisation: the int32 accumulator plus bias, times
// multiplier * 2^shift / 2^31 (TFLite's MultiplyByQuantizedMultiplier).
struct ChannelScale {
  std::int64_t bias = 0;  // |bias| < 2^39
  std::int32_t multiplier = 0;
  int shift = 0;  // -32..31
  bool operator==(const ChannelScale&) const = default;
};

// LOUPE_NPU_SCALE_RECORD_BYTES per channel. Throws std::invalid_argument for
// a bias, multiplier or shift its field cannot hold.
std::vector<std::uint8_t> encodeScales(std::span<const ChannelScale> channels);

}  // namespace loupe::npu
