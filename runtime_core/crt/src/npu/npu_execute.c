/*
 * The software NPU (loupe/npu.h): decodes a command stream and runs each
 * operation with TFLite Micro's reference integer arithmetic, reusing the
 * helpers the generated C and the reference interpreter share
 * (loupe/quantized_arith.h), so results match TFLite byte for byte.
 *
 * Convolutions run the way the NPU does: per OFM block of the block
 * configuration, with the block's int32 accumulators in the device and the
 * block's weights decoded on the fly from its sub-stream, which every
 * spatial block of the same OFM channels decodes again from its start.
 */
#include <loupe/npu.h>
#include <loupe/npu_weight_stream.h>
#include <loupe/quantized_arith.h>
#include <string.h>
#include <tvm/runtime/crt/error_codes.h>

typedef struct npu_regions {
  uint8_t* const* bases;
  const size_t* sizes;
  size_t count;
} npu_regions;

int32_t LoupeNpuDeviceInit(loupe_npu_device* npu) {
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  memset(npu, 0, sizeof(*npu));
  return kTvmErrorNoError;
}

/* Region r's bytes [offset, offset + bytes), or NULL with *status set. */
static uint8_t* RegionSpan(const npu_regions* regions, uint8_t region, uint64_t offset,
                           uint64_t bytes, int32_t* status) {
  if (region >= regions->count || regions->bases[region] == NULL) {
    *status = kTvmErrorNpuRegionInvalid;
    return NULL;
  }
  if (offset > regions->sizes[region] || bytes > regions->sizes[region] - offset) {
    *status = kTvmErrorNpuOutOfBounds;
    return NULL;
  }
  return regions->bases[region] + offset;
}

/* The tensor's first element after checking that its last one is inside its region. */
static int8_t* TensorBase(const npu_regions* regions, const loupe_npu_tensor* t, int32_t* status) {
  uint64_t extent;
  if (t->height == 0 || t->width == 0 || t->depth == 0) {
    *status = kTvmErrorNpuInvalidOperation;
    return NULL;
  }
  extent = (uint64_t)(t->height - 1) * t->stride_y + (uint64_t)(t->width - 1) * t->stride_x +
           (uint64_t)(t->depth - 1) * t->stride_c + 1;
  return (int8_t*)RegionSpan(regions, t->region, t->offset, extent, status);
}

static int8_t* At(int8_t* base, const loupe_npu_tensor* t, int y, int x, int c) {
  return base + (size_t)y * t->stride_y + (size_t)x * t->stride_x + (size_t)c * t->stride_c;
}

static int SameShape(const loupe_npu_tensor* a, const loupe_npu_tensor* b) {
  return a->height == b->height && a->width == b->width && a->depth == b->depth;
}

/* int32 from the low 32 bits, as TFLite's int32 accumulator wraps. */
static int32_t WrapToInt32(uint32_t u) {
  return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* The OFM extent a sliding window gives: (in + pads - effective) / stride + 1. */
static int WindowFits(int in, int pad_before, int pad_after, int kernel, int stride, int dilation,
                      int out) {
  const int effective = (kernel - 1) * dilation + 1;
  const int padded = in + pad_before + pad_after;
  return padded >= effective && (padded - effective) / stride + 1 == out;
}

static int32_t CheckWindow(const loupe_npu_operation* op, int max_kernel, int allow_dilation) {
  const loupe_npu_kernel* k = &op->kernel;
  if (k->height < 1 || k->width < 1 || k->stride_y < 1 || k->stride_x < 1 ||
      k->stride_y > LOUPE_NPU_MAX_STRIDE || k->stride_x > LOUPE_NPU_MAX_STRIDE ||
      k->dilation_y < 1 || k->dilation_x < 1 ||
      k->dilation_y > (allow_dilation ? LOUPE_NPU_MAX_DILATION : 1) ||
      k->dilation_x > (allow_dilation ? LOUPE_NPU_MAX_DILATION : 1) ||
      (k->height - 1) * k->dilation_y + 1 > max_kernel ||
      (k->width - 1) * k->dilation_x + 1 > max_kernel) {
    return kTvmErrorNpuInvalidOperation;
  }
  if (!WindowFits(op->ifm.height, k->pad_top, k->pad_bottom, k->height, k->stride_y, k->dilation_y,
                  op->ofm.height) ||
      !WindowFits(op->ifm.width, k->pad_left, k->pad_right, k->width, k->stride_x, k->dilation_x,
                  op->ofm.width)) {
    return kTvmErrorNpuInvalidOperation;
  }
  return kTvmErrorNoError;
}

static int Int8ZeroPoint(int32_t zero_point) {
  return zero_point >= -128 && zero_point <= 127;
}

static int32_t CheckCommon(const loupe_npu_operation* op) {
  /* int8 zero points keep every sum and product of the kernels inside int32. */
  if (!Int8ZeroPoint(op->ifm.zero_point) || !Int8ZeroPoint(op->ifm2.zero_point) ||
      !Int8ZeroPoint(op->ofm.zero_point)) {
    return kTvmErrorNpuInvalidOperation;
  }
  /* Region 0 holds the constants, which may be in flash. */
  if (op->ofm.region == LOUPE_NPU_REGION_CONSTANTS) return kTvmErrorNpuRegionInvalid;
  if (op->rounding != LOUPE_NPU_ROUNDING_TFLITE || op->activation_min < -128 ||
      op->activation_max > 127 || op->activation_min > op->activation_max ||
      op->block.height == 0 || op->block.width == 0 || op->block.depth == 0) {
    return kTvmErrorNpuInvalidOperation;
  }
  return kTvmErrorNoError;
}

static int ValidShift(int shift) {
  return shift >= -31 && shift <= 30;
}

/* CONV_2D (and FULLY_CONNECTED as a 1x1 convolution) and DEPTHWISE_CONV_2D. */
static int32_t RunConvolution(loupe_npu_device* npu, const loupe_npu_operation* op,
                              const npu_regions* regions) {
  const int depthwise = op->kind == LOUPE_NPU_OP_DEPTHWISE_CONV2D;
  const loupe_npu_kernel* k = &op->kernel;
  const int in_depth = depthwise ? 1 : op->ifm.depth;
  const int out_depth = op->ofm.depth;
  int32_t status = kTvmErrorNoError;
  int8_t* ifm;
  int8_t* ofm;
  const uint8_t* weights;
  const uint8_t* scales;
  size_t substream = 0;
  int c0;

  if ((status = CheckWindow(op, LOUPE_NPU_MAX_CONV_KERNEL, 1)) != kTvmErrorNoError) return status;
  if (depthwise && op->ifm.depth != op->ofm.depth) return kTvmErrorNpuInvalidOperation;
  if ((uint32_t)op->block.height * op->block.width * op->block.depth >
      LOUPE_NPU_ACCUMULATOR_CAPACITY) {
    return kTvmErrorNpuBlockTooLarge;
  }
  if (op->scales.length != (uint32_t)out_depth * LOUPE_NPU_SCALE_RECORD_BYTES) {
    return kTvmErrorNpuInvalidOperation;
  }
  ifm = TensorBase(regions, &op->ifm, &status);
  ofm = ifm ? TensorBase(regions, &op->ofm, &status) : NULL;
  weights =
      ofm ? RegionSpan(regions, op->weights.region, op->weights.offset, op->weights.length, &status)
          : NULL;
  scales = weights ? RegionSpan(regions, op->scales.region, op->scales.offset, op->scales.length,
                                &status)
                   : NULL;
  if (scales == NULL) return status;

  for (c0 = 0; c0 < out_depth; c0 += op->block.depth) {
    const int block_c = out_depth - c0 < op->block.depth ? out_depth - c0 : op->block.depth;
    /* 64-bit: a corrupt stream's dimensions must not wrap the count. */
    const uint64_t values = (uint64_t)k->height * k->width * (uint64_t)in_depth * (uint64_t)block_c;
    size_t substream_end = substream;
    int y0, x0;
    if (values > LOUPE_NPU_WEIGHT_MAX_SUBSTREAM_VALUES) return kTvmErrorNpuBadWeightStream;
    for (y0 = 0; y0 < op->ofm.height; y0 += op->block.height) {
      const int block_h =
          op->ofm.height - y0 < op->block.height ? op->ofm.height - y0 : op->block.height;
      for (x0 = 0; x0 < op->ofm.width; x0 += op->block.width) {
        const int block_w =
            op->ofm.width - x0 < op->block.width ? op->ofm.width - x0 : op->block.width;
        uint32_t* acc = npu->accumulators;
        loupe_npu_weight_decoder decoder;
        int ky, kx, ic, o, y, x;
        memset(acc, 0, sizeof(uint32_t) * (size_t)block_h * block_w * block_c);
        status = LoupeNpuWeightDecoderBegin(&decoder, weights, op->weights.length, substream,
                                            (uint32_t)values);
        if (status != kTvmErrorNoError) return status;
        /* Weights in stream order: kernel row, column, IFM channel, OFM channel. */
        for (ky = 0; ky < k->height; ++ky) {
          for (kx = 0; kx < k->width; ++kx) {
            for (ic = 0; ic < in_depth; ++ic) {
              for (o = 0; o < block_c; ++o) {
                int8_t w;
                const int channel = depthwise ? c0 + o : ic;
                status = LoupeNpuWeightDecoderNext(&decoder, &w);
                if (status != kTvmErrorNoError) return status;
                if (w == 0) continue;
                for (y = 0; y < block_h; ++y) {
                  const int in_y = (y0 + y) * k->stride_y - k->pad_top + ky * k->dilation_y;
                  if (in_y < 0 || in_y >= op->ifm.height) continue;
                  for (x = 0; x < block_w; ++x) {
                    const int in_x = (x0 + x) * k->stride_x - k->pad_left + kx * k->dilation_x;
                    int32_t input;
                    if (in_x < 0 || in_x >= op->ifm.width) continue;
                    input = *At(ifm, &op->ifm, in_y, in_x, channel) - op->ifm.zero_point;
                    acc[(y * block_w + x) * block_c + o] += (uint32_t)(w * input);
                  }
                }
              }
            }
          }
        }
        substream_end = LoupeNpuWeightDecoderEnd(&decoder);
        for (o = 0; o < block_c; ++o) {
          loupe_npu_channel_scale scale;
          status = LoupeNpuReadChannelScale(
              scales + (size_t)(c0 + o) * LOUPE_NPU_SCALE_RECORD_BYTES, &scale);
          if (status != kTvmErrorNoError) return status;
          if (!ValidShift(scale.shift)) return kTvmErrorNpuBadWeightStream;
          for (y = 0; y < block_h; ++y) {
            for (x = 0; x < block_w; ++x) {
              /* The bias joins the int32 sum modulo 2^32, like TFLite's. */
              const uint32_t sum =
                  acc[(y * block_w + x) * block_c + o] + (uint32_t)(uint64_t)scale.bias;
              *At(ofm, &op->ofm, y0 + y, x0 + x, c0 + o) = (int8_t)loupe_requantize_acc_i32(
                  WrapToInt32(sum), scale.multiplier, scale.shift, op->ofm.zero_point,
                  op->activation_min, op->activation_max);
            }
          }
        }
      }
    }
    substream = substream_end;
  }
  /* Every byte of the weight stream belongs to a sub-stream. */
  return substream == op->weights.length ? kTvmErrorNoError : kTvmErrorNpuBadWeightStream;
}

/* MAX_POOL_2D and AVERAGE_POOL_2D: windows clipped to the IFM (padding is
 * neither a value nor counted), no rescaling, as TFLite Micro's int8 pools. */
static int32_t RunPool(const loupe_npu_operation* op, const npu_regions* regions) {
  const loupe_npu_kernel* k = &op->kernel;
  int32_t status = kTvmErrorNoError;
  int8_t* ifm;
  int8_t* ofm;
  int y, x, c;
  if ((status = CheckWindow(op, LOUPE_NPU_MAX_POOL_KERNEL, 0)) != kTvmErrorNoError) return status;
  if (op->ifm.depth != op->ofm.depth) return kTvmErrorNpuInvalidOperation;
  ifm = TensorBase(regions, &op->ifm, &status);
  ofm = ifm ? TensorBase(regions, &op->ofm, &status) : NULL;
  if (ofm == NULL) return status;
  for (y = 0; y < op->ofm.height; ++y) {
    for (x = 0; x < op->ofm.width; ++x) {
      const int origin_y = y * k->stride_y - k->pad_top;
      const int origin_x = x * k->stride_x - k->pad_left;
      for (c = 0; c < op->ofm.depth; ++c) {
        int32_t sum = 0, count = 0, largest = -128, result;
        int ky, kx;
        for (ky = 0; ky < k->height; ++ky) {
          const int in_y = origin_y + ky;
          if (in_y < 0 || in_y >= op->ifm.height) continue;
          for (kx = 0; kx < k->width; ++kx) {
            const int in_x = origin_x + kx;
            int32_t value;
            if (in_x < 0 || in_x >= op->ifm.width) continue;
            value = *At(ifm, &op->ifm, in_y, in_x, c);
            sum += value;
            largest = value > largest ? value : largest;
            ++count;
          }
        }
        if (op->kind == LOUPE_NPU_OP_AVERAGE_POOL) {
          /* A window wholly in the padding cannot come from TFLite's padding. */
          if (count == 0) return kTvmErrorNpuInvalidOperation;
          result = loupe_average_pool_round(sum, count);
        } else {
          result = largest;
        }
        *At(ofm, &op->ofm, y, x, c) =
            (int8_t)loupe_clamp_i32(result, op->activation_min, op->activation_max);
      }
    }
  }
  return kTvmErrorNoError;
}

/* ADD, SUB (TFLite's general rescaling) and MUL of two equally shaped IFMs. */
static int32_t RunElementwise(const loupe_npu_operation* op, const npu_regions* regions) {
  int32_t status = kTvmErrorNoError;
  int8_t* ifm;
  int8_t* ifm2;
  int8_t* ofm;
  loupe_add_sub_params add_sub;
  loupe_mul_params mul;
  int y, x, c;
  if (!SameShape(&op->ifm, &op->ifm2) || !SameShape(&op->ifm, &op->ofm) ||
      op->elementwise_left_shift > LOUPE_NPU_MAX_ELEMENTWISE_LEFT_SHIFT || op->ofm.multiplier < 0 ||
      !ValidShift(op->ofm.shift) ||
      (op->kind != LOUPE_NPU_OP_MUL &&
       (op->ifm.multiplier < 0 || op->ifm2.multiplier < 0 || op->ifm.shift > 0 ||
        op->ifm2.shift > 0 || op->ofm.shift > 0 || !ValidShift(op->ifm.shift) ||
        !ValidShift(op->ifm2.shift)))) {
    return kTvmErrorNpuInvalidOperation;
  }
  ifm = TensorBase(regions, &op->ifm, &status);
  ifm2 = ifm ? TensorBase(regions, &op->ifm2, &status) : NULL;
  ofm = ifm2 ? TensorBase(regions, &op->ofm, &status) : NULL;
  if (ofm == NULL) return status;
  add_sub.input1_offset = -op->ifm.zero_point;
  add_sub.input2_offset = -op->ifm2.zero_point;
  add_sub.output_offset = op->ofm.zero_point;
  add_sub.left_shift = op->elementwise_left_shift;
  add_sub.input1_multiplier = op->ifm.multiplier;
  add_sub.input1_shift = op->ifm.shift;
  add_sub.input2_multiplier = op->ifm2.multiplier;
  add_sub.input2_shift = op->ifm2.shift;
  add_sub.output_multiplier = op->ofm.multiplier;
  add_sub.output_shift = op->ofm.shift;
  add_sub.act_min = op->activation_min;
  add_sub.act_max = op->activation_max;
  mul.input1_offset = add_sub.input1_offset;
  mul.input2_offset = add_sub.input2_offset;
  mul.output_offset = add_sub.output_offset;
  mul.output_multiplier = op->ofm.multiplier;
  mul.output_shift = op->ofm.shift;
  mul.act_min = op->activation_min;
  mul.act_max = op->activation_max;
  for (y = 0; y < op->ofm.height; ++y) {
    for (x = 0; x < op->ofm.width; ++x) {
      for (c = 0; c < op->ofm.depth; ++c) {
        const int32_t a = *At(ifm, &op->ifm, y, x, c);
        const int32_t b = *At(ifm2, &op->ifm2, y, x, c);
        int32_t result;
        if (op->kind == LOUPE_NPU_OP_ADD) {
          result = loupe_add_element(a, b, &add_sub);
        } else if (op->kind == LOUPE_NPU_OP_SUB) {
          result = loupe_sub_element(a, b, &add_sub);
        } else {
          result = loupe_mul_element(a, b, &mul);
        }
        *At(ofm, &op->ofm, y, x, c) = (int8_t)result;
      }
    }
  }
  return kTvmErrorNoError;
}

int32_t LoupeNpuExecute(loupe_npu_device* npu, const uint8_t* command_stream, size_t length,
                        uint8_t* const base_addresses[], const size_t base_sizes[],
                        size_t region_count) {
  loupe_npu_stream_decoder decoder;
  loupe_npu_operation op;
  npu_regions regions;
  int32_t status;
  int produced;
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  if (base_addresses == NULL || base_sizes == NULL) return kTvmErrorNpuRegionInvalid;
  regions.bases = base_addresses;
  regions.sizes = base_sizes;
  regions.count = region_count;
  status = LoupeNpuStreamBegin(&decoder, command_stream, length);
  /* A stream naming more regions than the caller bound fails before any of
   * its operations runs, rather than part-way through. */
  if (status == kTvmErrorNoError && region_count < decoder.region_count) {
    status = kTvmErrorNpuRegionInvalid;
  }
  while (status == kTvmErrorNoError) {
    status = LoupeNpuStreamNext(&decoder, &op, &produced);
    if (status != kTvmErrorNoError || !produced) break;
    status = CheckCommon(&op);
    if (status != kTvmErrorNoError) break;
    switch (op.kind) {
      case LOUPE_NPU_OP_CONV2D:
      case LOUPE_NPU_OP_DEPTHWISE_CONV2D:
        status = RunConvolution(npu, &op, &regions);
        break;
      case LOUPE_NPU_OP_MAX_POOL:
      case LOUPE_NPU_OP_AVERAGE_POOL:
        status = RunPool(&op, &regions);
        break;
      default:
        status = RunElementwise(&op, &regions);
        break;
    }
    if (status == kTvmErrorNoError) ++npu->operations_run;
  }
  return status;
}

int32_t LoupeNpuDeviceSetRegion(loupe_npu_device* npu, uint32_t region, uint8_t* base,
                                size_t bytes) {
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  if (region >= LOUPE_NPU_MAX_REGIONS) return kTvmErrorNpuRegionInvalid;
  npu->region_bases[region] = base;
  npu->region_sizes[region] = base == NULL ? 0 : bytes;
  return kTvmErrorNoError;
}

int32_t LoupeNpuDeviceRun(loupe_npu_device* npu, const uint8_t* command_stream, size_t length) {
  size_t r;
  int32_t status;
  if (npu == NULL) return kTvmErrorDeviceInvalid;
  status = LoupeNpuExecute(npu, command_stream, length, npu->region_bases, npu->region_sizes,
                           LOUPE_NPU_MAX_REGIONS);
  /* Bindings last one run, so a later stream cannot reach an earlier
   * function's buffers through a region it forgot to bind. */
  for (r = 0; r < LOUPE_NPU_MAX_REGIONS; ++r) {
    npu->region_bases[r] = NULL;
    npu->region_sizes[r] = 0;
  }
  return status;
}
