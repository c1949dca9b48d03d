// The weights of one NPU convolution (CONV, DEPTHWISE, a fully connected
// layer run as a 1x1 convolution) as the NPU reads them, decoded by the
// functional model's mlw decoder (loupe/ethosu/ethosu_weights.h) back to
// OHWI, with each output channel's bias, scale and shift from its 10-byte
// record, and what the encoding saved. Weights that a DMA copied out of the
// flash first (Vela's weight buffering) are read from where it copied them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "frontend/ethosu_payload_reader.h"

namespace loupe::analysis {

struct EthosUChannelScale {
  std::int64_t bias = 0;  // 40-bit signed
  std::uint32_t scale = 0;
  int shift = 0;  // 0-63: the output is (acc * scale) >> shift

  // scale / 2^shift: what one accumulator unit is worth at the output.
  double multiplier() const;
};

struct EthosUOperationWeights {
  int ofmDepth = 0, kernelHeight = 0, kernelWidth = 0, ifmDepth = 0;  // undilated, OHWI
  bool depthwise = false;
  int cores = 1;  // weight streams: output channel o is core o % cores's
  // ofmDepth * kernelHeight * kernelWidth * ifmDepth values, zero point
  // corrected (9-bit signed), OHWI.
  std::vector<std::int16_t> ohwi;
  std::vector<EthosUChannelScale> channels;  // per output channel
  std::uint64_t encodedBytes = 0;            // the weight streams' lengths, all cores
  std::uint64_t scaleBytes = 0;              // the scale streams' lengths
  int copiedBy = -1;  // the index (in its stream) of the DMA that copied them, or -1
  std::string error;  // non-empty: the weights could not be decoded (then no values)

  std::uint64_t weightCount() const { return ohwi.size(); }
  // The value of output channel o at (y, x, i).
  int value(int o, int y, int x, int i) const {
    return ohwi[static_cast<std::size_t>(((o * kernelHeight + y) * kernelWidth + x) * ifmDepth +
                                         i)];
  }
  int valuesPerChannel() const { return kernelHeight * kernelWidth * ifmDepth; }
};

// Whether `op` has weights to decode (CONV or DEPTHWISE with a weight stream).
bool ethosuHasWeights(const loupe_ethosu_operation& op);

// Decodes operation `index` of command stream `stream` of `payload`;
// `flash` holds region 0 (the operator's flash input). Never throws:
// failures are in `error`.
EthosUOperationWeights ethosuOperationWeights(const frontend::EthosUPayload& payload, int stream,
                                              int index, std::span<const std::uint8_t> flash);

}  // namespace loupe::analysis
