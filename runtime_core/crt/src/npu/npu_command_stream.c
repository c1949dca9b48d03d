/*
 * Decoder of the NPU command stream (loupe/npu_command_stream.h): a register
 * file loaded by SET_* commands and copied out at each OP_* command.
 */
#include <loupe/little_endian.h>
#include <loupe/npu_command_stream.h>
#include <string.h>
#include <tvm/runtime/crt/error_codes.h>

/* Two's complement without relying on implementation-defined conversions. */
static int32_t ReadI32(const uint8_t* p) {
  const uint32_t u = loupe_le_u32(p);
  return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1;
}

static int16_t ReadI16(const uint8_t* p) {
  const uint16_t u = loupe_le_u16(p);
  return u <= 0x7FFFu ? (int16_t)u : (int16_t)(-(int32_t)(uint16_t)~u - 1);
}

static int8_t ReadI8(const uint8_t* p) {
  return p[0] <= 0x7Fu ? (int8_t)p[0] : (int8_t)(-(int32_t)(uint8_t)~p[0] - 1);
}

static void ReadTensor(const uint8_t* p, loupe_npu_tensor* t) {
  t->region = p[0];
  t->height = loupe_le_u16(p + 1);
  t->width = loupe_le_u16(p + 3);
  t->depth = loupe_le_u16(p + 5);
  t->offset = loupe_le_u32(p + 7);
  t->stride_y = loupe_le_u32(p + 11);
  t->stride_x = loupe_le_u32(p + 15);
  t->stride_c = loupe_le_u32(p + 19);
  t->zero_point = ReadI32(p + 23);
  t->multiplier = ReadI32(p + 27);
  t->shift = ReadI8(p + 31);
}

static void ReadStreamRef(const uint8_t* p, loupe_npu_stream_ref* ref) {
  ref->region = p[0];
  ref->offset = loupe_le_u32(p + 1);
  ref->length = loupe_le_u32(p + 5);
}

int32_t LoupeNpuStreamBegin(loupe_npu_stream_decoder* decoder, const uint8_t* data, size_t length) {
  if (decoder == NULL || data == NULL || length < LOUPE_NPU_STREAM_HEADER_BYTES ||
      data[0] != LOUPE_NPU_STREAM_MAGIC0 || data[1] != LOUPE_NPU_STREAM_MAGIC1 ||
      data[2] != LOUPE_NPU_STREAM_MAGIC2 || data[3] != LOUPE_NPU_STREAM_MAGIC3) {
    return kTvmErrorNpuBadHeader;
  }
  if (loupe_le_u16(data + 4) == LOUPE_NPU_STREAM_VERSION) {
    decoder->region_count = loupe_le_u16(data + 6);
    if (decoder->region_count == 0 || decoder->region_count > LOUPE_NPU_MAX_REGIONS) {
      return kTvmErrorNpuBadHeader;
    }
  } else if (loupe_le_u16(data + 4) == LOUPE_NPU_STREAM_VERSION_1) {
    if (loupe_le_u16(data + 6) != 0) return kTvmErrorNpuBadHeader;
    decoder->region_count = LOUPE_NPU_REGION_COUNT;
  } else {
    return kTvmErrorNpuUnsupportedVersion;
  }
  decoder->data = data;
  decoder->length = length;
  decoder->position = LOUPE_NPU_STREAM_HEADER_BYTES;
  decoder->commands_left = loupe_le_u32(data + 8);
  memset(&decoder->registers, 0, sizeof(decoder->registers));
  return kTvmErrorNoError;
}

static size_t PayloadBytes(uint8_t opcode) {
  switch (opcode) {
    case LOUPE_NPU_CMD_SET_BLOCK_CONFIG:
      return LOUPE_NPU_BLOCK_CONFIG_PAYLOAD;
    case LOUPE_NPU_CMD_SET_IFM:
    case LOUPE_NPU_CMD_SET_IFM2:
    case LOUPE_NPU_CMD_SET_OFM:
      return LOUPE_NPU_TENSOR_PAYLOAD;
    case LOUPE_NPU_CMD_SET_KERNEL:
      return LOUPE_NPU_KERNEL_PAYLOAD;
    case LOUPE_NPU_CMD_SET_WEIGHTS:
    case LOUPE_NPU_CMD_SET_SCALES:
      return LOUPE_NPU_STREAM_REF_PAYLOAD;
    case LOUPE_NPU_CMD_SET_ACTIVATION:
      return LOUPE_NPU_ACTIVATION_PAYLOAD;
    case LOUPE_NPU_CMD_SET_ROUNDING:
      return LOUPE_NPU_ROUNDING_PAYLOAD;
    case LOUPE_NPU_CMD_OP_CONV2D:
    case LOUPE_NPU_CMD_OP_DEPTHWISE:
      return 0;
    case LOUPE_NPU_CMD_OP_POOL:
      return LOUPE_NPU_POOL_PAYLOAD;
    case LOUPE_NPU_CMD_OP_ELEMENTWISE:
      return LOUPE_NPU_ELEMENTWISE_PAYLOAD;
    default:
      return (size_t)-1;
  }
}

/* Applies one command; sets *kind to the operation an OP_* command starts.
 * A region past the header's count is refused here, while decoding, so a
 * stream never names a base address its caller was not asked for. */
static int32_t Apply(loupe_npu_operation* r, uint8_t opcode, const uint8_t* p,
                     uint16_t region_count, uint8_t* kind) {
  *kind = LOUPE_NPU_OP_NONE;
  switch (opcode) {
    case LOUPE_NPU_CMD_SET_IFM:
    case LOUPE_NPU_CMD_SET_IFM2:
    case LOUPE_NPU_CMD_SET_OFM:
    case LOUPE_NPU_CMD_SET_WEIGHTS:
    case LOUPE_NPU_CMD_SET_SCALES:
      /* The region is the first payload byte of a feature map and a stream reference. */
      if (p[0] >= region_count) return kTvmErrorNpuRegionInvalid;
      break;
    default:
      break;
  }
  switch (opcode) {
    case LOUPE_NPU_CMD_SET_BLOCK_CONFIG:
      r->block.height = loupe_le_u16(p);
      r->block.width = loupe_le_u16(p + 2);
      r->block.depth = loupe_le_u16(p + 4);
      break;
    case LOUPE_NPU_CMD_SET_IFM:
      ReadTensor(p, &r->ifm);
      break;
    case LOUPE_NPU_CMD_SET_IFM2:
      ReadTensor(p, &r->ifm2);
      break;
    case LOUPE_NPU_CMD_SET_OFM:
      ReadTensor(p, &r->ofm);
      break;
    case LOUPE_NPU_CMD_SET_KERNEL:
      r->kernel.height = p[0];
      r->kernel.width = p[1];
      r->kernel.stride_y = p[2];
      r->kernel.stride_x = p[3];
      r->kernel.dilation_y = p[4];
      r->kernel.dilation_x = p[5];
      r->kernel.pad_top = p[6];
      r->kernel.pad_left = p[7];
      r->kernel.pad_bottom = p[8];
      r->kernel.pad_right = p[9];
      break;
    case LOUPE_NPU_CMD_SET_WEIGHTS:
      ReadStreamRef(p, &r->weights);
      break;
    case LOUPE_NPU_CMD_SET_SCALES:
      ReadStreamRef(p, &r->scales);
      break;
    case LOUPE_NPU_CMD_SET_ACTIVATION:
      r->activation_min = ReadI16(p);
      r->activation_max = ReadI16(p + 2);
      break;
    case LOUPE_NPU_CMD_SET_ROUNDING:
      r->rounding = p[0];
      break;
    case LOUPE_NPU_CMD_OP_CONV2D:
      *kind = LOUPE_NPU_OP_CONV2D;
      break;
    case LOUPE_NPU_CMD_OP_DEPTHWISE:
      *kind = LOUPE_NPU_OP_DEPTHWISE_CONV2D;
      break;
    case LOUPE_NPU_CMD_OP_POOL:
      if (p[0] == LOUPE_NPU_POOL_MAX) {
        *kind = LOUPE_NPU_OP_MAX_POOL;
      } else if (p[0] == LOUPE_NPU_POOL_AVERAGE) {
        *kind = LOUPE_NPU_OP_AVERAGE_POOL;
      } else {
        return kTvmErrorNpuInvalidOperation;
      }
      break;
    case LOUPE_NPU_CMD_OP_ELEMENTWISE:
      if (p[0] == LOUPE_NPU_ELEMENTWISE_ADD) {
        *kind = LOUPE_NPU_OP_ADD;
      } else if (p[0] == LOUPE_NPU_ELEMENTWISE_SUB) {
        *kind = LOUPE_NPU_OP_SUB;
      } else if (p[0] == LOUPE_NPU_ELEMENTWISE_MUL) {
        *kind = LOUPE_NPU_OP_MUL;
      } else {
        return kTvmErrorNpuInvalidOperation;
      }
      r->elementwise_left_shift = p[1];
      break;
    default:
      return kTvmErrorNpuUnknownCommand;
  }
  return kTvmErrorNoError;
}

int32_t LoupeNpuStreamNext(loupe_npu_stream_decoder* decoder, loupe_npu_operation* operation,
                           int* produced) {
  *produced = 0;
  while (decoder->commands_left > 0) {
    const uint8_t* command = decoder->data + decoder->position;
    size_t payload;
    uint8_t kind;
    int32_t status;
    if (decoder->length - decoder->position < LOUPE_NPU_COMMAND_HEADER_BYTES) {
      return kTvmErrorNpuTruncatedStream;
    }
    payload = loupe_le_u16(command + 2);
    if (PayloadBytes(command[0]) == (size_t)-1) return kTvmErrorNpuUnknownCommand;
    if (command[1] != 0 || payload != PayloadBytes(command[0])) return kTvmErrorNpuBadCommandLength;
    if (decoder->length - decoder->position - LOUPE_NPU_COMMAND_HEADER_BYTES < payload) {
      return kTvmErrorNpuTruncatedStream;
    }
    status = Apply(&decoder->registers, command[0], command + LOUPE_NPU_COMMAND_HEADER_BYTES,
                   decoder->region_count, &kind);
    if (status != kTvmErrorNoError) return status;
    decoder->position += LOUPE_NPU_COMMAND_HEADER_BYTES + payload;
    --decoder->commands_left;
    if (kind != LOUPE_NPU_OP_NONE) {
      *operation = decoder->registers;
      operation->kind = kind;
      *produced = 1;
      return kTvmErrorNoError;
    }
  }
  /* Bytes after the last counted command mean the count or the stream is wrong. */
  return decoder->position == decoder->length ? kTvmErrorNoError : kTvmErrorNpuTruncatedStream;
}
