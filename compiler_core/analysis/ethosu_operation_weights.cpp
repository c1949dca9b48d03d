#include "analysis/ethosu_operation_weights.h"

#include <algorithm>
#include <cmath>

#include "loupe/ethosu/ethosu_execute.h"
#include "loupe/ethosu/ethosu_payload.h"
#include "loupe/ethosu/ethosu_weights.h"

namespace loupe::analysis {

namespace {

// The flash bytes of `range`: in place, or where the latest DMA before
// operation `index` that put bytes there copied them from.
std::span<const std::uint8_t> weightsViewBytes(const frontend::EthosUCommandStream& stream,
                                               std::size_t index,
                                               const loupe_ethosu_stream_range& range,
                                               std::span<const std::uint8_t> flash, int* copiedBy,
                                               std::string& error) {
  std::uint64_t at = range.base;
  if (range.region != 0) {
    bool found = false;
    for (std::size_t i = index; i-- > 0;) {
      const loupe_ethosu_operation& dma = stream.operations[i];
      if (dma.kind != LOUPE_ETHOSU_OPERATION_DMA || dma.dma_dst_internal ||
          dma.dma_dst_region != range.region || dma.dma_dst > range.base ||
          range.base + range.length > dma.dma_dst + dma.dma_length) {
        continue;
      }
      if (dma.dma_src_internal || dma.dma_src_region != 0) break;
      at = dma.dma_src + (range.base - dma.dma_dst);
      *copiedBy = static_cast<int>(dma.index);
      found = true;
      break;
    }
    if (!found) {
      error = "the stream in region " + std::to_string(range.region) +
              " was not copied there from the flash by an earlier DMA";
      return {};
    }
  }
  if (at > flash.size() || range.length > flash.size() - at) {
    error = "bytes [" + std::to_string(at) + ", +" + std::to_string(range.length) +
            ") lie outside the flash's " + std::to_string(flash.size()) + " bytes";
    return {};
  }
  return flash.subspan(static_cast<std::size_t>(at), range.length);
}

}  // namespace

double EthosUChannelScale::multiplier() const {
  return std::ldexp(static_cast<double>(scale), -shift);
}

bool ethosuHasWeights(const loupe_ethosu_operation& op) {
  return (op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE) &&
         op.weight_streams > 0;
}

EthosUOperationWeights ethosuOperationWeights(const frontend::EthosUPayload& payload, int stream,
                                              int index, std::span<const std::uint8_t> flash) {
  EthosUOperationWeights w;
  if (stream < 0 || static_cast<std::size_t>(stream) >= payload.streams.size() || index < 0 ||
      static_cast<std::size_t>(index) >=
          payload.streams[static_cast<std::size_t>(stream)].operations.size()) {
    w.error = "no NPU operation " + std::to_string(index) + " in command stream " +
              std::to_string(stream);
    return w;
  }
  const auto& commands = payload.streams[static_cast<std::size_t>(stream)];
  const loupe_ethosu_operation& op = commands.operations[static_cast<std::size_t>(index)];
  if (!ethosuHasWeights(op)) {
    w.error = std::string(loupe_ethosu_operation_name(&op)) + " has no weights";
    return w;
  }
  if (op.dilation_x == 0 || op.dilation_y == 0 || op.kernel_width == 0 || op.kernel_height == 0) {
    w.error = "the kernel registers are zero";
    return w;
  }
  loupe_ethosu_npu_config config;
  if (loupe_ethosu_npu_config_init(&config, payload.accelerator) != LOUPE_ETHOSU_OK) {
    w.error = "unknown accelerator";
    return w;
  }
  const std::uint32_t cores = op.weight_streams > 1 ? op.weight_streams : 1u;
  loupe_ethosu_weight_layout first{};
  loupe_ethosu_operation_weight_layout(&config, &op, 0, cores, &first);
  w.ofmDepth = static_cast<int>(op.ofm.depth);
  w.kernelHeight = static_cast<int>(first.kernel_height);
  w.kernelWidth = static_cast<int>(first.kernel_width);
  w.ifmDepth = static_cast<int>(first.ifm_depth);
  w.depthwise = first.is_depthwise != 0;
  w.cores = static_cast<int>(cores);
  const std::size_t perChannel = static_cast<std::size_t>(w.valuesPerChannel());
  for (std::uint32_t core = 0; core < cores; ++core) {
    w.encodedBytes += op.weights[core].length;
    w.scaleBytes += op.scales[core].length;
  }
  std::vector<std::int16_t> ohwi(static_cast<std::size_t>(w.ofmDepth) * perChannel);
  std::vector<EthosUChannelScale> channels(static_cast<std::size_t>(w.ofmDepth));
  std::vector<std::int16_t> coreValues;
  loupe_ethosu_mlw_decoder decoder;
  for (std::uint32_t core = 0; core < cores; ++core) {
    loupe_ethosu_weight_layout l{};
    loupe_ethosu_operation_weight_layout(&config, &op, core, cores, &l);
    if (l.ofm_depth == 0) continue;
    std::string error;
    const auto weights = weightsViewBytes(commands, static_cast<std::size_t>(index),
                                          op.weights[core], flash, &w.copiedBy, error);
    if (!error.empty()) {
      w.error = "weight stream of core " + std::to_string(core) + ": " + error;
      return w;
    }
    const auto scales = weightsViewBytes(commands, static_cast<std::size_t>(index), op.scales[core],
                                         flash, &w.copiedBy, error);
    if (!error.empty()) {
      w.error = "scale stream of core " + std::to_string(core) + ": " + error;
      return w;
    }
    if (scales.size() < std::size_t{l.ofm_depth} * LOUPE_ETHOSU_BIAS_RECORD_BYTES) {
      w.error = "scale stream of " + std::to_string(scales.size()) + " bytes for " +
                std::to_string(l.ofm_depth) + " channels of 10 bytes";
      return w;
    }
    coreValues.assign(std::size_t{l.ofm_depth} * perChannel, 0);
    loupe_ethosu_error err{};
    const int status = loupe_ethosu_weights_decode_ohwi(
        weights.data(), static_cast<std::uint32_t>(weights.size()), &l, coreValues.data(),
        static_cast<std::uint32_t>(coreValues.size()), &decoder, &err);
    if (status != LOUPE_ETHOSU_OK) {
      w.error = "weight stream of core " + std::to_string(core) + ": " + err.message;
      return w;
    }
    for (std::uint32_t local = 0; local < l.ofm_depth; ++local) {
      const std::size_t o = core + cores * local;
      std::copy_n(coreValues.begin() + static_cast<std::ptrdiff_t>(local * perChannel), perChannel,
                  ohwi.begin() + static_cast<std::ptrdiff_t>(o * perChannel));
      const loupe_ethosu_bias_record record =
          loupe_ethosu_bias_record_decode(scales.data() + local * LOUPE_ETHOSU_BIAS_RECORD_BYTES);
      channels[o] = {record.bias, record.scale, record.shift};
    }
  }
  w.ohwi = std::move(ohwi);
  w.channels = std::move(channels);
  return w;
}

}  // namespace loupe::analysis
