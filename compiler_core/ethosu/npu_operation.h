// One Ethos-U operation as the emitter describes it before writing its
// registers (register_emitter.h): the kind, where the IFM, IFM2 and OFM lie
// (region, base, strides) with their precision and zero points, the
// kernel, where the encoded weights and scale records lie, the output
// scaling and clamp, and the block it runs in.
#pragma once

#include <array>
#include <cstdint>

#include "ethosu/block_config.h"
#include "loupe/ethosu/ethosu_registers.h"

namespace loupe::ethosu {

enum class NpuOperationKind { Conv, Depthwise, Pool, Elementwise };

// Where a feature map's bytes are kept, and so what its base counts from:
// a tensor's place in the scratch (the region compiler's plan), the
// operator's own temporaries in the scratch (LoweredOperation::
// temporaryBytes, live only during the operator), or constants of the
// operator in the flash (LoweredOperation::constantMaps).
enum class NpuMapHome { Tensor, Temporary, Constant };

struct NpuFeatureMap {
  int region = 1;
  std::uint64_t base = 0;
  int height = 1, width = 1, depth = 1;
  int bits = 8;  // 8, 16 or 32
  bool isSigned = true;
  bool nhcwb16 = false;  // bricks of 16 channels instead of NHWC
  int zeroPoint = 0;
  std::uint64_t strideX = 0, strideY = 0, strideC = 0;  // bytes
  // A slice of a larger map (a concatenation's input in its output): bytes
  // from the start of the whole map's place to the slice's.
  std::uint64_t offset = 0;
  NpuMapHome home = NpuMapHome::Tensor;

  // A contiguous NHWC map of these extents at `base` of `region`.
  static NpuFeatureMap nhwc(int region, std::uint64_t base, int height, int width, int depth,
                            int bits = 8);
  // The same in NHCWB16: rows of bricks, each brick 16 channels of every
  // column (the last brick padded).
  static NpuFeatureMap bricks(int region, std::uint64_t base, int height, int width, int depth,
                              int bits = 8);
  std::uint64_t bytes() const;
};

struct NpuKernel {
  int width = 1, height = 1;  // undilated
  int strideX = 1, strideY = 1;
  int dilationX = 1, dilationY = 1;
  int padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int dilatedWidth() const { return dilationX * (width - 1) + 1; }
  int dilatedHeight() const { return dilationY * (height - 1) + 1; }
};

struct NpuRange {
  int region = 0;
  std::uint64_t base = 0;
  std::uint32_t length = 0;
};

struct NpuOperation {
  NpuOperationKind kind = NpuOperationKind::Conv;
  int subKind = 0;  // pooling_mode or elementwise_mode (loupe/ethosu/ethosu_registers.h)
  NpuFeatureMap ifm, ifm2, ofm;
  NpuKernel kernel;
  // upscale_mode (loupe/ethosu/ethosu_registers.h): the kernel reads the IFM
  // upscaled x2, each element repeated 2x2 (NEAREST) or with the zero point
  // between (ZEROS); `ifm` keeps the extents in memory, the kernel's
  // padding is in the upscaled map's elements.
  int ifmUpscale = 0;
  // Convolutions: per core, the mlw stream and the 10-byte records (core 1's
  // only on a two-core NPU, where every operation writes both cores'
  // registers: weightStreams 2).
  std::array<NpuRange, 2> weights, scales;
  int weightStreams = 1;
  // Pools and element-wise operations: with globalScale the OFM is scaled
  // by ofmScale / 2^ofmShift; without, it is taken as computed (an average
  // pool then divides by the elements inside the IFM, as TFLite does).
  bool globalScale = false;
  std::uint32_t ofmScale = 1;
  int ofmShift = 0;
  // Element-wise ADD and SUB: which operand is rescaled by the 32-bit
  // opaScale / 2^opaShift (ifm_scale_mode OPA_32 or OPB_32; the other is
  // halved), as TFLite's ADD rescales both to twice the larger scale.
  int ifmScaleMode = 0;
  std::uint32_t opaScale = 0;
  int opaShift = 0;
  // ifm_scale_mode OPA_OPB_16: ADD and SUB multiply their operands by the
  // low 16 bits of opaScale and of opbScale (no shift).
  std::uint32_t opbScale = 0;
  bool ifm2First = false;      // IFM2 is the first operand (operand_order)
  int roundMode = 0;           // round_mode: TFL
  int activationFunction = 0;  // activation_function: RELU (a clamp only)
  // activation_clip_range: the OFM's precision, or a lookup table's index
  // range (FORCE_INT8: a 32-bit OFM read through an 8-bit-indexed table).
  int activationClipRange = LOUPE_ETHOSU_activation_clip_range_OFM_PRECISION;
  int activationMin = -128, activationMax = 127;
  BlockConfig block;
  int blockDependency = 0;  // OFM blocks of the previous operation that may still run
  // Its weights and scales were DMA'd into the scratch: NPU_OP_DMA_WAIT
  // before it starts.
  bool waitsForDma = false;
};

// A one-dimensional copy by the NPU's DMA engine of source.length bytes,
// from `source` (an external region) to `destination`: an external region,
// or with `intoShram` the NPU's own SHRAM at that address (a lookup table).
struct NpuDma {
  NpuRange source;
  NpuRange destination;  // its length unused
  bool intoShram = false;
};

}  // namespace loupe::ethosu
