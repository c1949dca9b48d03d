/*
 * The command stream of Loupe's NPU (Ethos-U55-like), docs/npu.md: the binary
 * format the compiler writes (plugins/targets/npu/command_stream.h) and a
 * decoder that turns it back into operations, one at a time, without
 * allocating. The format constants live here once so the C++ encoder and the
 * C decoder cannot drift apart.
 *
 * A stream is a 12-byte header (magic "LNPU", version, region count, command
 * count) and commands of 4 header bytes (opcode, 0, payload length) plus a
 * payload. Version 2 names in its header how many base-address regions its
 * commands use (so one stream can address every tensor of a region of
 * several operations, one base-address region per tensor); version 1 has 0
 * there and means the 8 regions of LOUPE_NPU_REGION_COUNT.
 * SET_* commands load registers; an OP_* command runs one operation with the
 * registers as they are. All numbers are little-endian.
 * C99, no allocation; usable from C++.
 */
#ifndef LOUPE_NPU_COMMAND_STREAM_H_
#define LOUPE_NPU_COMMAND_STREAM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOUPE_NPU_STREAM_MAGIC0 'L'
#define LOUPE_NPU_STREAM_MAGIC1 'N'
#define LOUPE_NPU_STREAM_MAGIC2 'P'
#define LOUPE_NPU_STREAM_MAGIC3 'U'
#define LOUPE_NPU_STREAM_VERSION 2   /* what the compiler writes */
#define LOUPE_NPU_STREAM_VERSION_1 1 /* still read: 8 regions, header bytes 6-7 are 0 */
#define LOUPE_NPU_STREAM_HEADER_BYTES 12
#define LOUPE_NPU_COMMAND_HEADER_BYTES 4

/* Limits of the NPU: the compiler legalises nothing beyond them and the
 * software NPU refuses a stream that asks for more. */
#define LOUPE_NPU_MAX_STRIDE 3
#define LOUPE_NPU_MAX_DILATION 2
#define LOUPE_NPU_MAX_CONV_KERNEL 64 /* dilated height and width */
#define LOUPE_NPU_MAX_POOL_KERNEL 8
#define LOUPE_NPU_MAX_ELEMENTWISE_LEFT_SHIFT 20

/* Base-address regions (like Vela's): the index a tensor or stream names. */
enum loupe_npu_region {
  LOUPE_NPU_REGION_CONSTANTS = 0, /* encoded weights and scale streams, read-only */
  LOUPE_NPU_REGION_SCRATCH = 1,
  LOUPE_NPU_REGION_IFM = 2,
  LOUPE_NPU_REGION_IFM2 = 3,
  LOUPE_NPU_REGION_OFM = 4,
  LOUPE_NPU_REGION_COUNT = 8 /* regions a version 1 stream may name: 0..7 */
};

/* The most regions a version 2 stream may name (its header's region count):
 * 0 constants, 1 scratch and up to 62 feature maps, one per tensor of an NPU
 * region function. A device's base-address table has this many entries. */
#define LOUPE_NPU_MAX_REGIONS 64

enum loupe_npu_opcode {
  LOUPE_NPU_CMD_SET_BLOCK_CONFIG = 0x01, /* u16 h, w, c */
  LOUPE_NPU_CMD_SET_IFM = 0x02,          /* tensor payload */
  LOUPE_NPU_CMD_SET_IFM2 = 0x03,         /* tensor payload */
  LOUPE_NPU_CMD_SET_OFM = 0x04,          /* tensor payload */
  LOUPE_NPU_CMD_SET_KERNEL = 0x05,       /* u8 h, w, stride y/x, dilation y/x, pad t/l/b/r */
  LOUPE_NPU_CMD_SET_WEIGHTS = 0x06,      /* u8 region, u32 offset, u32 length */
  LOUPE_NPU_CMD_SET_SCALES = 0x07,       /* u8 region, u32 offset, u32 length */
  LOUPE_NPU_CMD_SET_ACTIVATION = 0x08,   /* i16 min, i16 max */
  LOUPE_NPU_CMD_SET_ROUNDING = 0x09,     /* u8 mode */
  LOUPE_NPU_CMD_OP_CONV2D = 0x10,        /* no payload */
  LOUPE_NPU_CMD_OP_DEPTHWISE = 0x11,     /* no payload */
  LOUPE_NPU_CMD_OP_POOL = 0x12,          /* u8 pool kind */
  LOUPE_NPU_CMD_OP_ELEMENTWISE = 0x13    /* u8 element-wise kind, u8 input left shift */
};

/* Payload bytes of each command. */
#define LOUPE_NPU_BLOCK_CONFIG_PAYLOAD 6
#define LOUPE_NPU_TENSOR_PAYLOAD 32
#define LOUPE_NPU_KERNEL_PAYLOAD 10
#define LOUPE_NPU_STREAM_REF_PAYLOAD 9
#define LOUPE_NPU_ACTIVATION_PAYLOAD 4
#define LOUPE_NPU_ROUNDING_PAYLOAD 1
#define LOUPE_NPU_POOL_PAYLOAD 1
#define LOUPE_NPU_ELEMENTWISE_PAYLOAD 2

enum loupe_npu_operation_kind {
  LOUPE_NPU_OP_NONE = 0,
  LOUPE_NPU_OP_CONV2D = 1,
  LOUPE_NPU_OP_DEPTHWISE_CONV2D = 2,
  LOUPE_NPU_OP_MAX_POOL = 3,
  LOUPE_NPU_OP_AVERAGE_POOL = 4,
  LOUPE_NPU_OP_ADD = 5,
  LOUPE_NPU_OP_SUB = 6,
  LOUPE_NPU_OP_MUL = 7
};

enum loupe_npu_pool_kind { LOUPE_NPU_POOL_MAX = 0, LOUPE_NPU_POOL_AVERAGE = 1 };
enum loupe_npu_elementwise_kind {
  LOUPE_NPU_ELEMENTWISE_ADD = 0,
  LOUPE_NPU_ELEMENTWISE_SUB = 1,
  LOUPE_NPU_ELEMENTWISE_MUL = 2
};

/* TFLite's rounding: gemmlowp's rounding doubling high multiply followed by a
 * rounding (half away from zero) right shift, as in TFLite's default build. */
enum loupe_npu_rounding { LOUPE_NPU_ROUNDING_TFLITE = 0 };

/* One int8 feature map in a region: element (y, x, c) is the byte at
 * base[region] + offset + y * stride_y + x * stride_x + c * stride_c.
 * multiplier/shift rescale an element-wise input or output. */
typedef struct loupe_npu_tensor {
  uint8_t region;
  uint16_t height, width, depth;
  uint32_t offset;
  uint32_t stride_y, stride_x, stride_c;
  int32_t zero_point;
  int32_t multiplier;
  int8_t shift;
} loupe_npu_tensor;

typedef struct loupe_npu_kernel {
  uint8_t height, width;
  uint8_t stride_y, stride_x;
  uint8_t dilation_y, dilation_x;
  uint8_t pad_top, pad_left, pad_bottom, pad_right;
} loupe_npu_kernel;

/* Where a weight or scale stream lies: `length` bytes at `offset` in `region`. */
typedef struct loupe_npu_stream_ref {
  uint8_t region;
  uint32_t offset;
  uint32_t length;
} loupe_npu_stream_ref;

/* The OFM block the NPU computes at once (accumulators held on chip). */
typedef struct loupe_npu_block_config {
  uint16_t height, width, depth;
} loupe_npu_block_config;

/* The register file an OP_* command runs with. */
typedef struct loupe_npu_operation {
  uint8_t kind; /* loupe_npu_operation_kind */
  loupe_npu_block_config block;
  loupe_npu_tensor ifm, ifm2, ofm;
  loupe_npu_kernel kernel;
  loupe_npu_stream_ref weights, scales;
  int16_t activation_min, activation_max;
  uint8_t rounding;               /* loupe_npu_rounding */
  uint8_t elementwise_left_shift; /* ADD/SUB: inputs are shifted left by this first */
} loupe_npu_operation;

/* Walks a command stream. */
typedef struct loupe_npu_stream_decoder {
  const uint8_t* data;
  size_t length;
  size_t position;
  uint32_t commands_left;
  uint16_t region_count; /* regions the stream may name (from its header) */
  loupe_npu_operation registers;
} loupe_npu_stream_decoder;

/* Checks the header (magic, version 1 or 2, a version 2 region count of
 * 1..LOUPE_NPU_MAX_REGIONS); kTvmErrorNoError or a kTvmErrorNpu* code. */
int32_t LoupeNpuStreamBegin(loupe_npu_stream_decoder* decoder, const uint8_t* data, size_t length);

/* Reads commands up to and including the next OP_* and copies the registers
 * it runs with to *operation (*produced = 1); at the end of the stream
 * *produced = 0. Returns kTvmErrorNoError or a kTvmErrorNpu* code for a
 * malformed stream (truncated, unknown opcode, wrong payload length, more or
 * fewer commands than the header says), and kTvmErrorNpuRegionInvalid for a
 * feature map or stream in a region at or past the header's region count. */
int32_t LoupeNpuStreamNext(loupe_npu_stream_decoder* decoder, loupe_npu_operation* operation,
                           int* produced);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LOUPE_NPU_COMMAND_STREAM_H_ */
