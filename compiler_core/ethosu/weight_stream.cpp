#include "ethosu/weight_stream.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ethosu/mlw_encoder.h"

namespace loupe::ethosu {

namespace {

std::uint32_t roundUp(std::uint32_t n, std::uint32_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

void checkLayout(const loupe_ethosu_weight_layout& l, std::size_t values) {
  if (l.ofm_depth == 0 || l.ofm_block_depth == 0 || l.ifm_ublock_depth == 0 ||
      l.ofm_ublock_depth == 0 || l.kernel_height == 0 || l.kernel_width == 0 || l.ifm_depth == 0 ||
      (l.dilation_x != 1 && l.dilation_x != 2) || (l.dilation_y != 1 && l.dilation_y != 2) ||
      (l.ifm_bits != 8 && l.ifm_bits != 16) || (l.is_depthwise && l.is_part_kernel_first)) {
    throw std::invalid_argument(
        "weight layout invalid (a zero size, a dilation other than 1 or 2, or a precision "
        "other than 8 or 16 bits)");
  }
  const std::size_t expected =
      std::size_t{l.ofm_depth} * l.kernel_height * l.kernel_width * l.ifm_depth;
  if (values != expected) {
    throw std::invalid_argument("weights: " + std::to_string(values) + " values for a layout of " +
                                std::to_string(expected));
  }
}

}  // namespace

std::vector<std::int16_t> weightsInBrickOrder(const loupe_ethosu_weight_layout& l,
                                              std::span<const std::int16_t> ohwi) {
  checkLayout(l, ohwi.size());
  const std::uint32_t ifmBlockDepth = (l.is_part_kernel_first || l.ifm_bits == 16) ? 16u : 32u;
  const std::uint32_t subKernelHeight = 8u / l.dilation_y, subKernelWidth = 8u / l.dilation_x;
  const std::uint32_t ifmEnd = l.is_depthwise ? 1u : l.ifm_depth;
  std::vector<std::int16_t> bricks;
  for (std::uint32_t blockStart = 0; blockStart < l.ofm_depth; blockStart += l.ofm_block_depth) {
    const std::uint32_t blockDepth = std::min(l.ofm_block_depth, l.ofm_depth - blockStart);
    for (std::uint32_t ifmBlock = 0; ifmBlock < ifmEnd; ifmBlock += ifmBlockDepth) {
      const std::uint32_t ifmDepth = l.is_depthwise ? l.ifm_ublock_depth
                                     : l.is_part_kernel_first
                                         ? std::min(ifmBlockDepth, l.ifm_depth - ifmBlock)
                                         : ifmBlockDepth;
      for (std::uint32_t subY = 0; subY < l.kernel_height; subY += subKernelHeight) {
        const std::uint32_t subHeight = std::min(l.kernel_height - subY, subKernelHeight);
        for (std::uint32_t subX = 0; subX < l.kernel_width; subX += subKernelWidth) {
          const std::uint32_t subWidth = std::min(l.kernel_width - subX, subKernelWidth);
          std::uint32_t elements = subWidth * subHeight;
          if (l.is_part_kernel_first) {
            elements = roundUp(elements, l.ifm_bits == 16 ? 2u : 4u);
          } else if (l.is_depthwise) {
            elements = roundUp(elements, 4u);
          }
          const std::uint32_t outerDepth = l.is_part_kernel_first ? ifmDepth : 1u;
          const std::uint32_t innerDepth = l.is_part_kernel_first ? 1u : ifmDepth;
          for (std::uint32_t outer = 0; outer < outerDepth; outer += l.ifm_ublock_depth) {
            for (std::uint32_t ofmUblock = 0; ofmUblock < blockDepth;
                 ofmUblock += l.ofm_ublock_depth) {
              for (std::uint32_t element = 0; element < elements; ++element) {
                const std::uint32_t kx = element % subWidth, ky = element / subWidth;
                for (std::uint32_t inner = 0; inner < innerDepth; inner += l.ifm_ublock_depth) {
                  for (std::uint32_t oz = 0; oz < l.ofm_ublock_depth; ++oz) {
                    const std::uint32_t izEnd = l.is_depthwise ? 1u : l.ifm_ublock_depth;
                    for (std::uint32_t iz = 0; iz < izEnd; ++iz) {
                      const std::uint32_t ifmZ = ifmBlock + inner + outer + iz;
                      const std::uint32_t ofmLocal = ofmUblock + oz;
                      std::int16_t value = 0;  // padding of the brick
                      if (ifmZ < l.ifm_depth && ofmLocal < blockDepth && ky < subHeight) {
                        const std::size_t o = blockStart + ofmLocal;
                        value =
                            ohwi[((o * l.kernel_height + subY + ky) * l.kernel_width + subX + kx) *
                                     l.ifm_depth +
                                 ifmZ];
                      }
                      bricks.push_back(value);
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return bricks;
}

std::vector<std::uint8_t> encodeWeightStream(const loupe_ethosu_weight_layout& layout,
                                             std::span<const std::int16_t> ohwi) {
  return encodeMlw(weightsInBrickOrder(layout, ohwi));
}

void appendScaleRecord(std::vector<std::uint8_t>& stream, const ChannelScale& channel) {
  constexpr std::int64_t kBiasLimit = std::int64_t{1} << 39;
  if (channel.bias < -kBiasLimit || channel.bias >= kBiasLimit) {
    throw std::invalid_argument("bias " + std::to_string(channel.bias) +
                                " does not fit the NPU's 40 bits");
  }
  if (channel.shift < 0 || channel.shift > 63) {
    throw std::invalid_argument("shift " + std::to_string(channel.shift) +
                                " is outside the NPU's 0..63");
  }
  const auto bias = static_cast<std::uint64_t>(channel.bias);
  for (int i = 0; i < 5; ++i) stream.push_back(static_cast<std::uint8_t>(bias >> (8 * i)));
  for (int i = 0; i < 4; ++i) stream.push_back(static_cast<std::uint8_t>(channel.scale >> (8 * i)));
  stream.push_back(static_cast<std::uint8_t>(channel.shift));
}

}  // namespace loupe::ethosu
