// The OFM block an NPU operation works in, and the SHRAM layout that block
// needs. The NPU computes an operation block by block; each block's IFM
// piece is read into the SHRAM's input banks (double-buffered) and its
// accumulators kept in the accumulator banks at the end, before the lookup
// table. A layout fits when the input banks (from bank 2, after the two the
// output keeps) end before the accumulators start; Vela's
// architecture_allocator.py states the sizes and granules. Among the blocks
// that fit, the one chosen moves the fewest IFM and weight bytes per OFM
// element.
#pragma once

#include <optional>

#include "ethosu/npu_architecture.h"

namespace loupe::ethosu {

enum class NpuBlockKind { Convolution, Depthwise, Pooling, Elementwise, ElementwiseScalar };

struct BlockRequest {
  NpuBlockKind kind = NpuBlockKind::Convolution;
  NpuBlock ofm;     // the OFM's width, height, depth
  NpuBlock ifm;     // the IFM's (for element-wise, the larger of IFM and IFM2)
  int ifmBits = 8;  // 8, 16 or 32
  int kernelWidth = 1, kernelHeight = 1;  // dilated extents
  int strideX = 1, strideY = 1;
  bool usesLookupTable = false;
  bool scaled = true;  // the OFM is rescaled (16-bit IFMs then need 40-bit accumulators)
  // upscale_mode of the IFM (NpuOperation::ifmUpscale): an OFM block then
  // reads half the upscaled rows and columns (Vela's _required_size), and
  // is at least 2x2.
  int ifmUpscale = 0;
};

// Banks of the SHRAM, as NPU_SET_IFM_IB_END, NPU_SET_IFM2_IB_START and
// NPU_SET_AB_START hold them.
struct ShramLayout {
  int ibStart = 0, ibEnd = 0, ibStart2 = 0, abStart = 0, lutStart = 0;
};

struct BlockConfig {
  NpuBlock ofmBlock;
  NpuBlock ifmBlock;
  ShramLayout layout;
  ShramUse accumulator = ShramUse::Acc32;  // Acc32 or Acc40
  bool partKernelFirst = false;            // the weights' order: kernel positions outermost
};

// The layout `ofmBlock` and `ifmBlock` take, or nothing when they do not fit.
std::optional<ShramLayout> shramLayoutFor(const NpuArchitecture& arch, const BlockRequest& request,
                                          NpuBlock ofmBlock, NpuBlock ifmBlock,
                                          ShramUse accumulator);

// The IFM block an OFM block reads (sub-kernels of at most 8x8).
NpuBlock ifmBlockFor(const NpuArchitecture& arch, const BlockRequest& request, NpuBlock ofmBlock,
                     bool partKernelFirst);

// The block that moves the least, or nothing when even the smallest block
// does not fit (a 32-bit IFM too deep for the SHRAM).
std::optional<BlockConfig> chooseBlockConfig(const NpuArchitecture& arch,
                                             const BlockRequest& request);

}  // namespace loupe::ethosu
