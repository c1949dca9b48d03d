#include "targets/npu/weight_encoder.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "loupe/npu_weight_stream.h"

namespace loupe::npu {

namespace {

constexpr int kMaxRiceParameter = 7;

std::uint32_t zigZag(std::int8_t w) {
  return w >= 0 ? 2u * static_cast<std::uint32_t>(w) : 2u * static_cast<std::uint32_t>(-w) - 1u;
}

std::int64_t riceBits(std::uint32_t n, int k, int rawBits) {
  const std::uint32_t quotient = n >> k;
  return quotient < LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT ? quotient + 1 + k
                                                     : LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT + rawBits;
}

// A sub-stream as symbols: in zero-run mode, (zeros before, value) pairs and
// possibly a final run with no value.
struct Symbols {
  std::vector<std::uint32_t> values;    // zig-zag codes, for plain mode
  std::vector<std::uint32_t> runs;      // zero-run mode: one per non-zero value (+ final)
  std::vector<std::uint32_t> nonZeros;  // zero-run mode: zig-zag code - 1
  bool finalRun = false;
};

Symbols symbolsOf(const std::vector<std::int8_t>& weights) {
  Symbols s;
  std::uint32_t zeros = 0;
  for (std::int8_t w : weights) {
    s.values.push_back(zigZag(w));
    if (w == 0) {
      ++zeros;
      continue;
    }
    s.runs.push_back(zeros);
    s.nonZeros.push_back(zigZag(w) - 1);
    zeros = 0;
  }
  if (zeros > 0) {
    s.runs.push_back(zeros);
    s.finalRun = true;
  }
  return s;
}

struct Code {
  bool zeroRun = false;
  int k = 0, kz = 0;
  std::int64_t bits = 0;
};

Code cheapestCode(const Symbols& s) {
  Code best;
  best.bits = -1;
  for (int k = 0; k <= kMaxRiceParameter; ++k) {
    std::int64_t plain = 0;
    for (std::uint32_t u : s.values) plain += riceBits(u, k, LOUPE_NPU_WEIGHT_VALUE_BITS);
    if (best.bits < 0 || plain < best.bits) best = {false, k, 0, plain};
    std::int64_t values = 0;
    for (std::uint32_t u : s.nonZeros) values += riceBits(u, k, LOUPE_NPU_WEIGHT_VALUE_BITS);
    for (int kz = 0; kz <= kMaxRiceParameter; ++kz) {
      std::int64_t runs = 0;
      for (std::uint32_t r : s.runs) runs += riceBits(r, kz, LOUPE_NPU_WEIGHT_RUN_BITS);
      if (values + runs < best.bits) best = {true, k, kz, values + runs};
    }
  }
  return best;
}

class BitWriter {
 public:
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void bits(std::uint32_t value, int count) {
    for (int i = 0; i < count; ++i) {
      if (used_ == 0) out_.push_back(0);
      out_.back() |= static_cast<std::uint8_t>(((value >> i) & 1u) << used_);
      used_ = (used_ + 1) % 8;
    }
  }
  void rice(std::uint32_t n, int k, int rawBits) {
    const std::uint32_t quotient = n >> k;
    if (quotient >= LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT) {
      for (int i = 0; i < LOUPE_NPU_WEIGHT_ESCAPE_QUOTIENT; ++i) bits(1, 1);
      bits(n, rawBits);
      return;
    }
    for (std::uint32_t i = 0; i < quotient; ++i) bits(1, 1);
    bits(0, 1);
    bits(n, k);  // the low k bits
  }

 private:
  std::vector<std::uint8_t>& out_;
  int used_ = 0;  // bits used in out_.back(); 0 starts a new byte
};

void encodeSubstream(const std::vector<std::int8_t>& weights, std::vector<std::uint8_t>& out) {
  const Symbols s = symbolsOf(weights);
  const Code code = cheapestCode(s);
  if (code.bits >= static_cast<std::int64_t>(weights.size()) * LOUPE_NPU_WEIGHT_VALUE_BITS) {
    out.push_back(LOUPE_NPU_WEIGHT_HEADER_RAW);
    for (std::int8_t w : weights) out.push_back(static_cast<std::uint8_t>(w));
    return;
  }
  out.push_back(static_cast<std::uint8_t>(
      code.k | (code.zeroRun ? LOUPE_NPU_WEIGHT_HEADER_ZERO_RUN : 0u) |
      (static_cast<unsigned>(code.kz) << LOUPE_NPU_WEIGHT_HEADER_KZ_SHIFT)));
  BitWriter writer(out);
  if (!code.zeroRun) {
    for (std::uint32_t u : s.values) writer.rice(u, code.k, LOUPE_NPU_WEIGHT_VALUE_BITS);
    return;
  }
  for (std::size_t i = 0; i < s.nonZeros.size(); ++i) {
    writer.rice(s.runs[i], code.kz, LOUPE_NPU_WEIGHT_RUN_BITS);
    writer.rice(s.nonZeros[i], code.k, LOUPE_NPU_WEIGHT_VALUE_BITS);
  }
  if (s.finalRun) writer.rice(s.runs.back(), code.kz, LOUPE_NPU_WEIGHT_RUN_BITS);
}

}  // namespace

std::vector<std::size_t> npuReadingOrder(const WeightShape& shape, int firstChannel, int channels) {
  std::vector<std::size_t> order;
  order.reserve(static_cast<std::size_t>(std::int64_t{shape.kernelHeight} * shape.kernelWidth *
                                         shape.ifmDepth * channels));
  for (int ky = 0; ky < shape.kernelHeight; ++ky) {
    for (int kx = 0; kx < shape.kernelWidth; ++kx) {
      for (int ic = 0; ic < shape.ifmDepth; ++ic) {
        for (int o = 0; o < channels; ++o) {
          const std::int64_t index =
              ((std::int64_t{firstChannel + o} * shape.kernelHeight + ky) * shape.kernelWidth +
               kx) *
                  shape.ifmDepth +
              ic;
          order.push_back(static_cast<std::size_t>(index));
        }
      }
    }
  }
  return order;
}

std::vector<std::uint8_t> encodeWeights(std::span<const std::int8_t> ohwi,
                                        const WeightShape& shape) {
  if (shape.ofmDepth < 1 || shape.kernelHeight < 1 || shape.kernelWidth < 1 || shape.ifmDepth < 1 ||
      shape.blockDepth < 1) {
    throw std::invalid_argument("encodeWeights: every dimension must be at least 1");
  }
  if (static_cast<std::int64_t>(ohwi.size()) != shape.count()) {
    throw std::invalid_argument("encodeWeights: " + std::to_string(ohwi.size()) +
                                " weights for a shape of " + std::to_string(shape.count()));
  }
  const std::int64_t perChannel =
      std::int64_t{shape.kernelHeight} * shape.kernelWidth * shape.ifmDepth;
  std::vector<std::uint8_t> stream;
  for (int c0 = 0; c0 < shape.ofmDepth; c0 += shape.blockDepth) {
    const int blockChannels = std::min(shape.blockDepth, shape.ofmDepth - c0);
    if (perChannel * blockChannels >
        static_cast<std::int64_t>(LOUPE_NPU_WEIGHT_MAX_SUBSTREAM_VALUES)) {
      throw std::invalid_argument("encodeWeights: a block of " + std::to_string(blockChannels) +
                                  " OFM channels holds more weights than a sub-stream may");
    }
    std::vector<std::int8_t> block;
    for (std::size_t index : npuReadingOrder(shape, c0, blockChannels))
      block.push_back(ohwi[index]);
    encodeSubstream(block, stream);
  }
  return stream;
}

std::vector<std::uint8_t> encodeScales(std::span<const ChannelScale> channels) {
  std::vector<std::uint8_t> stream;
  stream.reserve(channels.size() * LOUPE_NPU_SCALE_RECORD_BYTES);
  constexpr std::int64_t kBiasLimit = std::int64_t{1} << 39;
  for (const ChannelScale& c : channels) {
    if (c.bias < -kBiasLimit || c.bias >= kBiasLimit || c.multiplier < 0 ||
        c.shift < -LOUPE_NPU_SCALE_SHIFT_BIAS || c.shift > 63 - LOUPE_NPU_SCALE_SHIFT_BIAS) {
      throw std::invalid_argument("encodeScales: bias " + std::to_string(c.bias) + ", multiplier " +
                                  std::to_string(c.multiplier) + ", shift " +
                                  std::to_string(c.shift) + " do not fit a scale record");
    }
    const auto bias = static_cast<std::uint64_t>(c.bias);
    for (int i = 0; i < 5; ++i) stream.push_back(static_cast<std::uint8_t>(bias >> (8 * i)));
    const auto multiplier = static_cast<std::uint32_t>(c.multiplier);
    for (int i = 0; i < 4; ++i) stream.push_back(static_cast<std::uint8_t>(multiplier >> (8 * i)));
    stream.push_back(static_cast<std::uint8_t>(c.shift + LOUPE_NPU_SCALE_SHIFT_BIAS));
  }
  return stream;
}

}  // namespace loupe::npu
