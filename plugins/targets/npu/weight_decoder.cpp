#include "targets/npu/weight_decoder.h"

#include <algorithm>
#include <string>

#include "loupe/npu_weight_stream.h"

namespace loupe::npu {

namespace {

class BitReader {
 public:
  BitReader(std::span<const std::uint8_t> bytes, std::size_t byteOffset)
      : bytes_(bytes), bit_(byteOffset * 8) {}

  std::uint32_t bits(int count) {
    std::uint32_t value = 0;
    for (int i = 0; i < count; ++i) {
      if (bit_ / 8 >= bytes_.size()) throw WeightStreamError("weight stream: bits run out");
      value |= static_cast<std::uint32_t>((bytes_[bit_ / 8] >> (bit_ % 8)) & 1u) << i;
      ++bit_;
    }
    return value;
  }
  std::uint32_t rice(int k, int rawBits) {
    std::uint32_t quotient = 0;
    while (bits(1) == 1) {
      if (++quotient == LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT) return bits(rawBits);
    }
    return (quotient << k) | bits(k);
  }
  std::size_t nextByte() const { return (bit_ + 7) / 8; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t bit_;
};

std::int8_t fromZigZag(std::uint32_t u) {
  if (u > 255) throw WeightStreamError("weight stream: a code beyond int8");
  return static_cast<std::int8_t>((u & 1u) ? -static_cast<int>(u >> 1) - 1
                                           : static_cast<int>(u >> 1));
}

// One sub-stream of `count` weights starting at byte `at`; returns the next sub-stream's byte.
std::size_t decodeSubstream(std::span<const std::uint8_t> stream, std::size_t at, std::size_t count,
                            std::vector<std::int8_t>& out) {
  if (at >= stream.size()) throw WeightStreamError("weight stream: a sub-stream is missing");
  const std::uint8_t header = stream[at];
  if ((header & LOUPE_NPU_WEIGHT_HEADER_RAW) && header != LOUPE_NPU_WEIGHT_HEADER_RAW) {
    throw WeightStreamError("weight stream: invalid header at byte " + std::to_string(at));
  }
  const int k = header & LOUPE_NPU_WEIGHT_HEADER_K_MASK;
  const int kz = (header >> LOUPE_NPU_WEIGHT_HEADER_KZ_SHIFT) & 0x07;
  BitReader reader(stream, at + 1);
  if (header == LOUPE_NPU_WEIGHT_HEADER_RAW) {
    for (std::size_t i = 0; i < count; ++i) {
      out.push_back(static_cast<std::int8_t>(reader.bits(LOUPE_NPU_WEIGHT_VALUE_BITS)));
    }
    return reader.nextByte();
  }
  if (!(header & LOUPE_NPU_WEIGHT_HEADER_ZERO_RUN)) {
    for (std::size_t i = 0; i < count; ++i) {
      out.push_back(fromZigZag(reader.rice(k, LOUPE_NPU_WEIGHT_VALUE_BITS)));
    }
    return reader.nextByte();
  }
  std::size_t left = count;
  while (left > 0) {
    const std::uint32_t run = reader.rice(kz, LOUPE_NPU_WEIGHT_RUN_BITS);
    if (run > left) throw WeightStreamError("weight stream: a zero run past the sub-stream");
    out.insert(out.end(), run, 0);
    left -= run;
    if (left == 0) break;
    out.push_back(fromZigZag(reader.rice(k, LOUPE_NPU_WEIGHT_VALUE_BITS) + 1));
    --left;
  }
  return reader.nextByte();
}

}  // namespace

std::vector<std::int8_t> decodeWeights(std::span<const std::uint8_t> stream,
                                       const WeightShape& shape) {
  const std::int64_t perChannel =
      std::int64_t{shape.kernelHeight} * shape.kernelWidth * shape.ifmDepth;
  std::vector<std::int8_t> ohwi(static_cast<std::size_t>(shape.count()));
  std::size_t at = 0;
  for (int c0 = 0; c0 < shape.ofmDepth; c0 += shape.blockDepth) {
    const int blockChannels = std::min(shape.blockDepth, shape.ofmDepth - c0);
    std::vector<std::int8_t> block;
    at = decodeSubstream(stream, at, static_cast<std::size_t>(perChannel * blockChannels), block);
    std::size_t next = 0;
    for (std::size_t index : npuReadingOrder(shape, c0, blockChannels)) ohwi[index] = block[next++];
  }
  if (at != stream.size()) {
    throw WeightStreamError("weight stream: " + std::to_string(stream.size() - at) +
                            " bytes after the last sub-stream");
  }
  return ohwi;
}

std::vector<ChannelScale> decodeScales(std::span<const std::uint8_t> stream) {
  if (stream.size() % LOUPE_NPU_SCALE_RECORD_BYTES != 0) {
    throw WeightStreamError("scale stream: " + std::to_string(stream.size()) +
                            " bytes is not a whole number of records");
  }
  std::vector<ChannelScale> channels;
  for (std::size_t at = 0; at < stream.size(); at += LOUPE_NPU_SCALE_RECORD_BYTES) {
    std::uint64_t bias = 0;
    std::uint32_t multiplier = 0;
    for (int i = 0; i < 5; ++i) bias |= std::uint64_t{stream[at + i]} << (8 * i);
    for (int i = 0; i < 4; ++i) multiplier |= std::uint32_t{stream[at + 5 + i]} << (8 * i);
    const std::uint8_t shift = stream[at + 9];
    if (multiplier > 0x7FFFFFFFu || (shift & 0xC0u) != 0) {
      throw WeightStreamError("scale stream: record " +
                              std::to_string(at / LOUPE_NPU_SCALE_RECORD_BYTES) + " is invalid");
    }
    ChannelScale c;
    // Sign-extend the 40-bit bias.
    c.bias = static_cast<std::int64_t>(bias << 24) >> 24;
    c.multiplier = static_cast<std::int32_t>(multiplier);
    c.shift = static_cast<int>(shift & 0x3Fu) - LOUPE_NPU_SCALE_SHIFT_BIAS;
    channels.push_back(c);
  }
  return channels;
}

}  // namespace loupe::npu
