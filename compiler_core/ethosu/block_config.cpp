#include "ethosu/block_config.h"

#include <algorithm>
#include <limits>

#include "loupe/ethosu/ethosu_registers.h"

namespace loupe::ethosu {

namespace {

int roundUp(int n, int multiple) {
  return (n + multiple - 1) / multiple * multiple;
}
int divideRoundingUp(std::int64_t n, std::int64_t d) {
  return static_cast<int>((n + d - 1) / d);
}

bool isElementwise(NpuBlockKind kind) {
  return kind == NpuBlockKind::Elementwise || kind == NpuBlockKind::ElementwiseScalar;
}
// Operations whose OFM depth is their IFM's: their IFM block is as deep as the OFM block.
bool keepsDepth(NpuBlockKind kind) {
  return kind != NpuBlockKind::Convolution;
}

int accumulatorBits(ShramUse use) {
  return use == ShramUse::Acc40 ? 40 : use == ShramUse::Acc16 ? 16 : 32;
}

ShramUse ifmUse(int bits, bool elementwise) {
  if (bits == 32) return ShramUse::Ifm32;
  if (bits == 16) return elementwise ? ShramUse::Ifm16Elementwise : ShramUse::Ifm16;
  return elementwise ? ShramUse::Ifm8Elementwise : ShramUse::Ifm8;
}

// Part-kernel-first (kernel positions outermost) when the IFM is shallow or
// it wastes less of the MAC array than depth-first.
bool partKernelFirstFor(const BlockRequest& r) {
  if (r.kind != NpuBlockKind::Convolution) return false;
  if (r.ifm.depth <= 8) return true;
  const double depthFirst =
      static_cast<double>(r.ifm.depth) / roundUp(r.ifm.depth, r.ifmBits == 8 ? 32 : 16);
  const int elements = r.kernelWidth * r.kernelHeight;
  const double partKernel =
      static_cast<double>(r.ifm.depth) * elements /
      (static_cast<double>(roundUp(r.ifm.depth, 8)) * roundUp(elements, r.ifmBits == 8 ? 4 : 2));
  return partKernel > depthFirst;
}

}  // namespace

std::optional<ShramLayout> shramLayoutFor(const NpuArchitecture& arch, const BlockRequest& request,
                                          NpuBlock ofmBlock, NpuBlock ifmBlock,
                                          ShramUse accumulator) {
  const bool elementwise = isElementwise(request.kind);
  const std::int64_t ifmBytes = std::int64_t{ifmBlock.width} * ifmBlock.height *
                                roundUp(divideRoundingUp(ifmBlock.depth * request.ifmBits, 8), 8);
  const int ifmBanks = roundUp(divideRoundingUp(ifmBytes, NpuArchitecture::kShramBankBytes) * 2,
                               arch.granule(ifmUse(request.ifmBits, elementwise)));
  ShramLayout layout;
  layout.lutStart = arch.shramBanks - arch.reservedEndBanks(request.usesLookupTable);
  layout.ibStart = NpuArchitecture::kReservedOutputBanks;
  layout.ibEnd = layout.ibStart + ifmBanks;
  layout.ibStart2 = layout.ibEnd;
  layout.abStart = layout.lutStart;
  if (!elementwise) {
    const std::int64_t accumulatorBytes = std::int64_t{ofmBlock.width} * ofmBlock.height *
                                          roundUp(ofmBlock.depth, 8) *
                                          accumulatorBits(accumulator) / 8;
    const int accumulatorBanks =
        roundUp(divideRoundingUp(accumulatorBytes, NpuArchitecture::kShramBankBytes) * 2,
                arch.granule(accumulator));
    layout.abStart -= accumulatorBanks;
  } else {
    const int ifm2Banks = request.kind == NpuBlockKind::Elementwise ? ifmBanks : 0;
    if (layout.ibStart2 + ifm2Banks > layout.abStart) return std::nullopt;
    layout.ibEnd = layout.abStart;  // element-wise operations read into all of it
  }
  if (layout.ibEnd > layout.abStart) return std::nullopt;
  return layout;
}

NpuBlock ifmBlockFor(const NpuArchitecture& arch, const BlockRequest& r, NpuBlock ofmBlock,
                     bool partKernelFirst) {
  // Upscaled x2, the block needs half the rows and columns under its
  // windows; NEAREST one more before halving (an element's copy may start
  // the window).
  const int upscale = r.ifmUpscale == LOUPE_ETHOSU_upscale_mode_NONE ? 1 : 2;
  const int nearest = r.ifmUpscale == LOUPE_ETHOSU_upscale_mode_NEAREST ? 1 : 0;
  const auto extent = [&](int ofm, int stride, int kernel, int subKernelMax) {
    return divideRoundingUp((ofm - 1) * stride + std::min(kernel, subKernelMax) + nearest, upscale);
  };
  NpuBlock ifm;
  ifm.height = roundUp(
      extent(ofmBlock.height, r.strideY, r.kernelHeight, NpuArchitecture::kSubKernelMax.height),
      arch.ofmMicroBlock.height);
  ifm.width = roundUp(
      extent(ofmBlock.width, r.strideX, r.kernelWidth, NpuArchitecture::kSubKernelMax.width),
      arch.ofmMicroBlock.width);
  if (keepsDepth(r.kind)) {
    ifm.depth = ofmBlock.depth;
  } else if (r.ifmBits == 16) {
    ifm.depth = roundUp(std::min(r.ifm.depth, 16), 4);
  } else {
    ifm.depth = roundUp(std::min(r.ifm.depth, partKernelFirst ? 16 : 32), arch.ifmMicroBlock.depth);
  }
  return ifm;
}

std::optional<BlockConfig> chooseBlockConfig(const NpuArchitecture& arch, const BlockRequest& r) {
  BlockConfig best;
  best.partKernelFirst = partKernelFirstFor(r);
  best.accumulator = r.ifmBits == 16 && r.kind != NpuBlockKind::Pooling && r.scaled
                         ? ShramUse::Acc40
                         : ShramUse::Acc32;
  const NpuBlock& ublock = arch.ofmMicroBlock;
  const NpuBlock& max = NpuArchitecture::kOfmBlockMax;
  const int least = r.ifmUpscale == LOUPE_ETHOSU_upscale_mode_NONE ? 1 : 2;
  const int maxWidth = roundUp(std::max(std::min(r.ofm.width, max.width), least), ublock.width);
  const int maxHeight = roundUp(std::max(std::min(r.ofm.height, max.height), least), ublock.height);
  const int maxDepth = roundUp(std::min(r.ofm.depth, max.depth), ublock.depth);
  const std::int64_t ofmElements = std::int64_t{r.ofm.width} * r.ofm.height * r.ofm.depth;
  const bool convolution = r.kind == NpuBlockKind::Convolution || r.kind == NpuBlockKind::Depthwise;
  const int subKernels = divideRoundingUp(r.kernelWidth, NpuArchitecture::kSubKernelMax.width) *
                         divideRoundingUp(r.kernelHeight, NpuArchitecture::kSubKernelMax.height);
  double bestCost = std::numeric_limits<double>::infinity();
  for (int depth = ublock.depth; depth <= maxDepth; depth += ublock.depth) {
    // Blocks shallower than the OFM split it in steps of 16 channels.
    if (depth < r.ofm.depth && depth % NpuArchitecture::kOfmSplitDepth != 0 &&
        depth > ublock.depth) {
      continue;
    }
    for (int height = ublock.height; height <= maxHeight; height += ublock.height) {
      for (int width = ublock.width; width <= maxWidth; width += ublock.width) {
        // An upscaled IFM is read in blocks of at least 2x2 (Vela's
        // npu_find_block_configs).
        if (height < least || width < least) continue;
        const NpuBlock ofmBlock{width, height, depth};
        const NpuBlock ifmBlock = ifmBlockFor(arch, r, ofmBlock, best.partKernelFirst);
        const auto layout = shramLayoutFor(arch, r, ofmBlock, ifmBlock, best.accumulator);
        if (!layout) continue;
        // Bytes moved per OFM element: each block reads its IFM piece (once
        // per sub-kernel, and for a convolution once per OFM block depth)
        // and a convolution's weights once per block position.
        const std::int64_t blocksWide = divideRoundingUp(r.ofm.width, width);
        const std::int64_t blocksHigh = divideRoundingUp(r.ofm.height, height);
        const std::int64_t blocksDeep = divideRoundingUp(r.ofm.depth, depth);
        double ifmFetch = static_cast<double>(ifmBlock.width) * ifmBlock.height * r.ifm.depth *
                          subKernels * blocksWide * blocksHigh;
        if (!keepsDepth(r.kind)) ifmFetch *= static_cast<double>(blocksDeep);
        double weightFetch = 0;
        if (convolution) {
          weightFetch = static_cast<double>(r.kernelWidth) * r.kernelHeight * blocksWide *
                        blocksHigh *
                        (r.kind == NpuBlockKind::Depthwise
                             ? r.ofm.depth
                             : static_cast<double>(r.ifm.depth) * depth * blocksDeep);
        }
        const double cost = isElementwise(r.kind)
                                ? static_cast<double>(blocksWide * blocksHigh * blocksDeep)
                                : (ifmFetch + weightFetch) / static_cast<double>(ofmElements);
        // Equal cost: the larger block (fewer block starts).
        if (cost < bestCost || (cost == bestCost && width * height * depth >
                                                        best.ofmBlock.width * best.ofmBlock.height *
                                                            best.ofmBlock.depth)) {
          bestCost = cost;
          best.ofmBlock = ofmBlock;
          best.ifmBlock = ifmBlock;
          best.layout = *layout;
        }
      }
    }
  }
  if (bestCost == std::numeric_limits<double>::infinity()) return std::nullopt;
  return best;
}

}  // namespace loupe::ethosu
