#include "ethosu/register_emitter.h"

#include <stdexcept>

namespace loupe::ethosu {

namespace {

std::uint32_t precisionOf(int bits) {
  switch (bits) {
    case 8:
      return LOUPE_ETHOSU_activation_precision_B8;
    case 16:
      return LOUPE_ETHOSU_activation_precision_B16;
    case 32:
      return LOUPE_ETHOSU_activation_precision_B32;
    default:
      throw std::invalid_argument("feature maps are 8, 16 or 32 bits, not " + std::to_string(bits));
  }
}

std::uint32_t asField(int value) {
  return static_cast<std::uint32_t>(value);  // two's complement, masked by the field
}

// The registers that place one feature map: IFM, IFM2 and OFM have the
// same set at other codes (the OFM its extents as well, which the NPU
// derives for the inputs).
struct FeatureMapCodes {
  std::uint32_t region, base0, base1, base2, base3, height0, height1, width0;
  std::uint32_t strideX, strideY, strideC, zeroPoint;
};

constexpr FeatureMapCodes kIfmCodes{
    LOUPE_ETHOSU_NPU_SET_IFM_REGION,     LOUPE_ETHOSU_NPU_SET_IFM_BASE0,
    LOUPE_ETHOSU_NPU_SET_IFM_BASE1,      LOUPE_ETHOSU_NPU_SET_IFM_BASE2,
    LOUPE_ETHOSU_NPU_SET_IFM_BASE3,      LOUPE_ETHOSU_NPU_SET_IFM_HEIGHT0_M1,
    LOUPE_ETHOSU_NPU_SET_IFM_HEIGHT1_M1, LOUPE_ETHOSU_NPU_SET_IFM_WIDTH0_M1,
    LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_X,   LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_Y,
    LOUPE_ETHOSU_NPU_SET_IFM_STRIDE_C,   LOUPE_ETHOSU_NPU_SET_IFM_ZERO_POINT};
constexpr FeatureMapCodes kIfm2Codes{
    LOUPE_ETHOSU_NPU_SET_IFM2_REGION,     LOUPE_ETHOSU_NPU_SET_IFM2_BASE0,
    LOUPE_ETHOSU_NPU_SET_IFM2_BASE1,      LOUPE_ETHOSU_NPU_SET_IFM2_BASE2,
    LOUPE_ETHOSU_NPU_SET_IFM2_BASE3,      LOUPE_ETHOSU_NPU_SET_IFM2_HEIGHT0_M1,
    LOUPE_ETHOSU_NPU_SET_IFM2_HEIGHT1_M1, LOUPE_ETHOSU_NPU_SET_IFM2_WIDTH0_M1,
    LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_X,   LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_Y,
    LOUPE_ETHOSU_NPU_SET_IFM2_STRIDE_C,   LOUPE_ETHOSU_NPU_SET_IFM2_ZERO_POINT};
constexpr FeatureMapCodes kOfmCodes{
    LOUPE_ETHOSU_NPU_SET_OFM_REGION,     LOUPE_ETHOSU_NPU_SET_OFM_BASE0,
    LOUPE_ETHOSU_NPU_SET_OFM_BASE1,      LOUPE_ETHOSU_NPU_SET_OFM_BASE2,
    LOUPE_ETHOSU_NPU_SET_OFM_BASE3,      LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT0_M1,
    LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT1_M1, LOUPE_ETHOSU_NPU_SET_OFM_WIDTH0_M1,
    LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_X,   LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_Y,
    LOUPE_ETHOSU_NPU_SET_OFM_STRIDE_C,   LOUPE_ETHOSU_NPU_SET_OFM_ZERO_POINT};

// Where the map lies, as one tile (tile 0 covers it; the others are never
// read), its strides and zero point. Every zero-point field is bits 16-31.
void emitPlacement(CommandStreamWriter& w, const FeatureMapCodes& codes, const NpuFeatureMap& f) {
  w.setValue(codes.region, static_cast<std::uint64_t>(f.region));
  w.setValue(codes.base0, f.base);
  w.setValue(codes.base1, 0);
  w.setValue(codes.base2, 0);
  w.setValue(codes.base3, 0);
  w.setValue(codes.height0, static_cast<std::uint64_t>(f.height - 1));
  w.setValue(codes.height1, static_cast<std::uint64_t>(f.height - 1));
  w.setValue(codes.width0, static_cast<std::uint64_t>(f.width - 1));
  w.setValue(codes.strideC, f.strideC);
  w.setValue(codes.strideY, f.strideY);
  w.setValue(codes.strideX, f.strideX);
  w.set(codes.zeroPoint,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_ZERO_POINT, zero_point), asField(f.zeroPoint)}});
}

void emitIfm(CommandStreamWriter& w, const NpuOperation& op) {
  const NpuFeatureMap& f = op.ifm;
  emitPlacement(w, kIfmCodes, f);
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_DEPTH_M1, static_cast<std::uint64_t>(f.depth - 1));
  w.set(LOUPE_ETHOSU_NPU_SET_IFM_PRECISION,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, activation_type), f.isSigned ? 1u : 0u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, activation_precision), precisionOf(f.bits)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, activation_format), f.nhcwb16 ? 1u : 0u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, scale_mode), asField(op.ifmScaleMode)}});
  w.set(LOUPE_ETHOSU_NPU_SET_IFM_UPSCALE,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM_UPSCALE, mode), asField(op.ifmUpscale)}});
}

// The second operand of an element-wise operation, and how it broadcasts.
void emitIfm2(CommandStreamWriter& w, const NpuOperation& op) {
  const NpuFeatureMap& f = op.ifm2;
  emitPlacement(w, kIfm2Codes, f);
  w.set(LOUPE_ETHOSU_NPU_SET_IFM2_PRECISION,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_PRECISION, activation_type), f.isSigned ? 1u : 0u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_PRECISION, activation_precision), precisionOf(f.bits)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_PRECISION, activation_format), f.nhcwb16 ? 1u : 0u}});
  w.set(LOUPE_ETHOSU_NPU_SET_IFM2_BROADCAST,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_BROADCAST, broadcast_h),
          f.height == 1 && op.ofm.height != 1 ? 1u : 0u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_BROADCAST, broadcast_w),
          f.width == 1 && op.ofm.width != 1 ? 1u : 0u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_BROADCAST, broadcast_c),
          f.depth == 1 && op.ofm.depth != 1 ? 1u : 0u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_IFM2_BROADCAST, operand_order), op.ifm2First ? 1u : 0u}});
  w.set(LOUPE_ETHOSU_NPU_SET_OPA_SCALE,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_OPA_SCALE, scale), op.opaScale},
         {LOUPE_ETHOSU_FIELD(NPU_SET_OPA_SCALE, shift), asField(op.opaShift)}});
  const bool addOrSub = op.subKind == LOUPE_ETHOSU_elementwise_mode_ADD ||
                        op.subKind == LOUPE_ETHOSU_elementwise_mode_SUB;
  if (addOrSub && op.ifmScaleMode == LOUPE_ETHOSU_ifm_scale_mode_OPA_OPB_16) {
    w.set(LOUPE_ETHOSU_NPU_SET_OPB_SCALE,
          {{LOUPE_ETHOSU_FIELD(NPU_SET_OPB_SCALE, scale), op.opbScale}});
  }
}

void emitPadding(CommandStreamWriter& w, const NpuKernel& k) {
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_PAD_TOP, static_cast<std::uint64_t>(k.padTop));
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_PAD_LEFT, static_cast<std::uint64_t>(k.padLeft));
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_PAD_BOTTOM, static_cast<std::uint64_t>(k.padBottom));
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_PAD_RIGHT, static_cast<std::uint64_t>(k.padRight));
}

void emitOfm(CommandStreamWriter& w, const NpuOperation& op) {
  const NpuFeatureMap& f = op.ofm;
  emitPlacement(w, kOfmCodes, f);
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_HEIGHT_M1, static_cast<std::uint64_t>(f.height - 1));
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_WIDTH_M1, static_cast<std::uint64_t>(f.width - 1));
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_DEPTH_M1, static_cast<std::uint64_t>(f.depth - 1));
  const bool perChannel = op.kind == NpuOperationKind::Conv ||
                          op.kind == NpuOperationKind::Depthwise || !op.globalScale;
  w.set(
      LOUPE_ETHOSU_NPU_SET_OFM_PRECISION,
      {{LOUPE_ETHOSU_FIELD(NPU_SET_OFM_PRECISION, activation_type), f.isSigned ? 1u : 0u},
       {LOUPE_ETHOSU_FIELD(NPU_SET_OFM_PRECISION, activation_precision), precisionOf(f.bits)},
       {LOUPE_ETHOSU_FIELD(NPU_SET_OFM_PRECISION, activation_format), f.nhcwb16 ? 1u : 0u},
       {LOUPE_ETHOSU_FIELD(NPU_SET_OFM_PRECISION, scale_mode),
        perChannel ? LOUPE_ETHOSU_ofm_scale_mode_PER_CHANNEL : LOUPE_ETHOSU_ofm_scale_mode_GLOBAL},
       {LOUPE_ETHOSU_FIELD(NPU_SET_OFM_PRECISION, round_mode), asField(op.roundMode)}});
}

void emitKernel(CommandStreamWriter& w, const NpuOperation& op) {
  const NpuKernel& k = op.kernel;
  if (k.strideX < 1 || k.strideX > 3 || k.strideY < 1 || k.strideY > 3 || k.dilationX < 1 ||
      k.dilationX > 2 || k.dilationY < 1 || k.dilationY > 2) {
    throw std::invalid_argument("the NPU's strides are 1-3 and its dilations 1-2");
  }
  w.setValue(LOUPE_ETHOSU_NPU_SET_KERNEL_WIDTH_M1,
             static_cast<std::uint64_t>(k.dilatedWidth() - 1));
  w.setValue(LOUPE_ETHOSU_NPU_SET_KERNEL_HEIGHT_M1,
             static_cast<std::uint64_t>(k.dilatedHeight() - 1));
  const auto sx = static_cast<std::uint32_t>(k.strideX - 1),
             sy = static_cast<std::uint32_t>(k.strideY - 1);
  w.set(LOUPE_ETHOSU_NPU_SET_KERNEL_STRIDE,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, stride_x_lsb), sx & 1u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, stride_y_lsb), sy & 1u},
         {LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, stride_x_msb), sx >> 1},
         {LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, stride_y_msb), sy >> 1},
         {LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, dilation_x), asField(k.dilationX - 1)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, dilation_y), asField(k.dilationY - 1)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_KERNEL_STRIDE, weight_order),
          op.block.partKernelFirst ? LOUPE_ETHOSU_weight_order_PART_KERNEL_FIRST
                                   : LOUPE_ETHOSU_weight_order_DEPTH_FIRST}});
}

void emitWeightsAndScales(CommandStreamWriter& w, const NpuOperation& op) {
  w.setValue(LOUPE_ETHOSU_NPU_SET_WEIGHT_REGION, static_cast<std::uint64_t>(op.weights[0].region));
  w.setValue(LOUPE_ETHOSU_NPU_SET_WEIGHT_BASE, op.weights[0].base);
  w.setValue(LOUPE_ETHOSU_NPU_SET_WEIGHT_LENGTH, op.weights[0].length);
  if (op.weightStreams > 1) {
    w.setValue(LOUPE_ETHOSU_NPU_SET_WEIGHT1_BASE, op.weights[1].base);
    w.setValue(LOUPE_ETHOSU_NPU_SET_WEIGHT1_LENGTH, op.weights[1].length);
  }
  w.setValue(LOUPE_ETHOSU_NPU_SET_SCALE_REGION, static_cast<std::uint64_t>(op.scales[0].region));
  w.setValue(LOUPE_ETHOSU_NPU_SET_SCALE_BASE, op.scales[0].base);
  w.setValue(LOUPE_ETHOSU_NPU_SET_SCALE_LENGTH, op.scales[0].length);
  if (op.weightStreams > 1) {
    w.setValue(LOUPE_ETHOSU_NPU_SET_SCALE1_BASE, op.scales[1].base);
    w.setValue(LOUPE_ETHOSU_NPU_SET_SCALE1_LENGTH, op.scales[1].length);
  }
}

void emitActivation(CommandStreamWriter& w, const NpuOperation& op) {
  w.set(LOUPE_ETHOSU_NPU_SET_ACTIVATION,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_ACTIVATION, activation_function),
          asField(op.activationFunction)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_ACTIVATION, activation_clip_range),
          asField(op.activationClipRange)}});
  w.set(LOUPE_ETHOSU_NPU_SET_ACTIVATION_MIN,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_ACTIVATION_MIN, clip_boundary), asField(op.activationMin)}});
  w.set(LOUPE_ETHOSU_NPU_SET_ACTIVATION_MAX,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_ACTIVATION_MAX, clip_boundary), asField(op.activationMax)}});
}

void emitBlock(CommandStreamWriter& w, const NpuOperation& op) {
  const BlockConfig& b = op.block;
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_BLK_WIDTH_M1,
             static_cast<std::uint64_t>(b.ofmBlock.width - 1));
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_BLK_HEIGHT_M1,
             static_cast<std::uint64_t>(b.ofmBlock.height - 1));
  w.setValue(LOUPE_ETHOSU_NPU_SET_OFM_BLK_DEPTH_M1,
             static_cast<std::uint64_t>(b.ofmBlock.depth - 1));
  w.setValue(LOUPE_ETHOSU_NPU_SET_IFM_IB_END, static_cast<std::uint64_t>(b.layout.ibEnd));
  if (op.kind == NpuOperationKind::Elementwise) {
    w.setValue(LOUPE_ETHOSU_NPU_SET_IFM2_IB_START, static_cast<std::uint64_t>(b.layout.ibStart2));
  }
  w.setValue(LOUPE_ETHOSU_NPU_SET_AB_START, static_cast<std::uint64_t>(b.layout.abStart));
  w.set(LOUPE_ETHOSU_NPU_SET_ACC_FORMAT,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_ACC_FORMAT, acc_format), b.accumulator == ShramUse::Acc40
                                                                  ? LOUPE_ETHOSU_acc_format_I40
                                                                  : LOUPE_ETHOSU_acc_format_I32}});
  w.setValue(LOUPE_ETHOSU_NPU_SET_BLOCKDEP, static_cast<std::uint64_t>(op.blockDependency));
}

}  // namespace

void emitNpuOperation(CommandStreamWriter& w, const NpuOperation& op) {
  emitIfm(w, op);
  if (op.kind == NpuOperationKind::Elementwise) emitIfm2(w, op);
  const bool convolution =
      op.kind == NpuOperationKind::Conv || op.kind == NpuOperationKind::Depthwise;
  if (op.kind != NpuOperationKind::Elementwise) emitPadding(w, op.kernel);
  emitOfm(w, op);
  if (op.kind != NpuOperationKind::Elementwise) emitKernel(w, op);
  if (convolution) {
    emitWeightsAndScales(w, op);
  } else if (op.globalScale) {
    w.set(LOUPE_ETHOSU_NPU_SET_OFM_SCALE,
          {{LOUPE_ETHOSU_FIELD(NPU_SET_OFM_SCALE, scale), op.ofmScale},
           {LOUPE_ETHOSU_FIELD(NPU_SET_OFM_SCALE, shift), asField(op.ofmShift)}});
  }
  emitActivation(w, op);
  emitBlock(w, op);
  // No DMA is left running: one at a time, each the next operation's.
  if (op.waitsForDma)
    w.operation(LOUPE_ETHOSU_NPU_OP_DMA_WAIT, {{LOUPE_ETHOSU_FIELD(NPU_OP_DMA_WAIT, k), 0}});
  switch (op.kind) {
    case NpuOperationKind::Conv:
      w.operation(LOUPE_ETHOSU_NPU_OP_CONV);
      break;
    case NpuOperationKind::Depthwise:
      w.operation(LOUPE_ETHOSU_NPU_OP_DEPTHWISE);
      break;
    case NpuOperationKind::Pool:
      w.operation(LOUPE_ETHOSU_NPU_OP_POOL,
                  {{LOUPE_ETHOSU_FIELD(NPU_OP_POOL, pooling_mode), asField(op.subKind)}});
      break;
    case NpuOperationKind::Elementwise:
      w.operation(
          LOUPE_ETHOSU_NPU_OP_ELEMENTWISE,
          {{LOUPE_ETHOSU_FIELD(NPU_OP_ELEMENTWISE, elementwise_mode), asField(op.subKind)}});
      break;
  }
}

void emitParallelMode(CommandStreamWriter& w, int cores) {
  w.setValue(LOUPE_ETHOSU_NPU_SET_PARALLEL_MODE, static_cast<std::uint64_t>(cores - 1));
}

void emitKernelWait(CommandStreamWriter& w, int outstanding) {
  w.operation(LOUPE_ETHOSU_NPU_OP_KERNEL_WAIT,
              {{LOUPE_ETHOSU_FIELD(NPU_OP_KERNEL_WAIT, n), asField(outstanding)}});
}

void emitDma(CommandStreamWriter& w, const NpuDma& dma) {
  w.set(LOUPE_ETHOSU_NPU_SET_DMA0_SRC_REGION,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_DMA0_SRC_REGION, region), asField(dma.source.region)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_DMA0_SRC_REGION, region_mode),
          LOUPE_ETHOSU_dma_region_mode_EXTERNAL}});
  w.setValue(LOUPE_ETHOSU_NPU_SET_DMA0_SRC, dma.source.base);
  w.set(LOUPE_ETHOSU_NPU_SET_DMA0_DST_REGION,
        {{LOUPE_ETHOSU_FIELD(NPU_SET_DMA0_DST_REGION, region),
          dma.intoShram ? 0u : asField(dma.destination.region)},
         {LOUPE_ETHOSU_FIELD(NPU_SET_DMA0_DST_REGION, region_mode),
          dma.intoShram ? LOUPE_ETHOSU_dma_region_mode_INTERNAL
                        : LOUPE_ETHOSU_dma_region_mode_EXTERNAL}});
  w.setValue(LOUPE_ETHOSU_NPU_SET_DMA0_DST, dma.destination.base);
  w.setValue(LOUPE_ETHOSU_NPU_SET_DMA0_LEN, dma.source.length);
  w.operation(LOUPE_ETHOSU_NPU_OP_DMA_START);
}

void emitStop(CommandStreamWriter& w) {
  w.operation(LOUPE_ETHOSU_NPU_OP_STOP, {{LOUPE_ETHOSU_FIELD(NPU_OP_STOP, mask), 0xffffu}});
}

}  // namespace loupe::ethosu
