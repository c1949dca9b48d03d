// Decoding of the NPU's weight and scale streams on the compiler side: the
// inverse of weight_encoder.h, for tests and for showing what an encoded
// operator holds. The runtime has its own streaming decoder in C
// (loupe/npu_weight_stream.h); both read the same format.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "targets/npu/weight_encoder.h"

namespace loupe::npu {

class WeightStreamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The OHWI weights of a stream encodeWeights wrote for `shape`. Throws
// WeightStreamError when the stream is corrupt, shorter or longer.
std::vector<std::int8_t> decodeWeights(std::span<const std::uint8_t> stream,
                                       const WeightShape& shape);

// The records of a scale stream; throws WeightStreamError on a length that is
// not a whole number of records or a record with reserved bits set.
std::vector<ChannelScale> decodeScales(std::span<const std::uint8_t> stream);

}  // namespace loupe::npu
