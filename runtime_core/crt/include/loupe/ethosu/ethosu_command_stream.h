/*
 * The Ethos-U register command stream turned into typed operations. The
 * NPU keeps every register until it is written again, and Vela leaves out
 * writes of values already set (register_command_stream_generator.py), so
 * the decoder carries the register state across operations and, at every
 * NPU_OP_* word, hands out one loupe_ethosu_operation holding all that the
 * operation reads. Each operation records the words that set it up, so a
 * listing can group the words by operation: from the word after the
 * previous operation that does work (a kernel operation, a DMA) to its own
 * NPU_OP_* word. Waits, IRQ and PMU masks set nothing up: each keeps just
 * its own word, which lies inside the group of the operation after it
 * (Vela writes a wait right before the operation that needs it).
 *
 * No allocation: the caller owns the decoder (about 1.5 KiB) and the
 * operation, and pulls operations one at a time.
 */
#ifndef LOUPE_ETHOSU_COMMAND_STREAM_H_
#define LOUPE_ETHOSU_COMMAND_STREAM_H_

#include <stdint.h>

#include "loupe/ethosu/ethosu_error.h"
#include "loupe/ethosu/ethosu_registers.h"

#ifdef __cplusplus
extern "C" {
#endif

enum loupe_ethosu_operation_kind {
  LOUPE_ETHOSU_OPERATION_STOP = 0,
  LOUPE_ETHOSU_OPERATION_IRQ,
  LOUPE_ETHOSU_OPERATION_CONV,
  LOUPE_ETHOSU_OPERATION_DEPTHWISE,
  LOUPE_ETHOSU_OPERATION_POOL,        /* sub_kind: pooling_mode */
  LOUPE_ETHOSU_OPERATION_ELEMENTWISE, /* sub_kind: elementwise_mode */
  LOUPE_ETHOSU_OPERATION_DMA,
  LOUPE_ETHOSU_OPERATION_DMA_WAIT,
  LOUPE_ETHOSU_OPERATION_KERNEL_WAIT,
  LOUPE_ETHOSU_OPERATION_PMU_MASK
};

/* A feature map as the registers describe it. Heights and widths the NPU
 * does not hold (IFM, IFM2) are derived: the IFM from the OFM, kernel,
 * stride and padding; IFM2 like the OFM, less its broadcast dimensions. */
typedef struct loupe_ethosu_feature_map {
  uint8_t region;
  uint8_t precision_bits; /* 8, 16, 32 or 64 */
  uint8_t is_signed;
  uint8_t layout; /* activation_format: NHWC or NHCWB16 */
  int32_t zero_point;
  uint32_t height, width, depth;
  uint32_t height0, height1, width0; /* tiles: 0 top-left, 1 top-right, 2 bottom-left, 3 */
  uint64_t base[4];                  /* tile base addresses, offsets in the region */
  uint64_t stride_x, stride_y, stride_c;
} loupe_ethosu_feature_map;

typedef struct loupe_ethosu_stream_range {
  uint8_t region;
  uint64_t base;
  uint32_t length;
} loupe_ethosu_stream_range;

typedef struct loupe_ethosu_operation {
  uint8_t kind;                  /* enum loupe_ethosu_operation_kind */
  uint8_t sub_kind;              /* pooling_mode or elementwise_mode; DMA: mode; waits: count */
  uint32_t index;                /* operations before this one in the stream */
  uint32_t first_word, end_word; /* its words: [first_word, end_word), see above */

  loupe_ethosu_feature_map ifm, ifm2, ofm;
  uint8_t ifm_scale_mode; /* ifm_scale_mode: OPA_OPB_16, OPA_32, OPB_32 */
  uint8_t ifm_round_mode;
  uint8_t ofm_scale_mode; /* ofm_scale_mode: PER_CHANNEL or GLOBAL */
  uint8_t round_mode;     /* round_mode of the OFM: TFL, TRUNCATE, NATURAL */
  uint8_t ifm_upscale;    /* upscale_mode */

  /* Kernel: dilated extent, as the registers hold it, and the pieces. */
  uint32_t kernel_width, kernel_height; /* dilated: dilation * (k - 1) + 1 */
  uint8_t stride_x, stride_y, dilation_x, dilation_y;
  uint8_t part_kernel_first; /* weight_order */
  uint8_t decomposition;
  uint32_t pad_top, pad_left, pad_bottom, pad_right;

  uint8_t activation_function;   /* activation_function: RELU (none), TANH, SIGMOID, TABLE_n */
  uint8_t activation_clip_range; /* activation_clip_range */
  int32_t activation_min, activation_max;

  uint8_t weight_streams; /* 0, or one per core with weights */
  loupe_ethosu_stream_range weights[2];
  loupe_ethosu_stream_range scales[2];

  uint32_t ofm_scale;
  uint8_t ofm_shift;
  uint32_t opa_scale;
  uint8_t opa_shift;
  uint32_t opb_scale;

  uint8_t ifm2_broadcast_h, ifm2_broadcast_w, ifm2_broadcast_c;
  uint8_t ifm2_reversed;  /* operand_order: IFM2 is the first operand */
  uint8_t ifm2_is_scalar; /* broadcast_constant */
  int32_t ifm2_scalar;

  uint32_t block_width, block_height, block_depth;           /* OFM block */
  uint8_t ib_end, ab_start, ib_start2, acc_format, blockdep; /* SHRAM layout */
  uint8_t parallel_mode;

  /* DMA */
  uint8_t dma_src_region, dma_src_internal, dma_dst_region, dma_dst_internal;
  uint8_t dma_src_stride_mode, dma_dst_stride_mode;
  uint64_t dma_src, dma_dst, dma_length;
  uint64_t dma_skip0, dma_skip1;
  uint32_t dma_size0, dma_size1;
} loupe_ethosu_operation;

typedef struct loupe_ethosu_command_decoder {
  const uint8_t* words; /* little-endian command words */
  uint32_t word_count;
  uint32_t position;    /* next word */
  uint32_t operations;  /* handed out so far */
  uint32_t group_start; /* first word after the last operation that does work */
  int stopped;
  uint16_t cmd0[0x190]; /* cmd0 parameters by opcode */
  uint32_t cmd1[0x94];  /* cmd1 payloads by opcode */
  uint16_t cmd1_param[0x94];
} loupe_ethosu_command_decoder;

/* Starts decoding `word_count` words; registers start at 0 as after reset. */
void loupe_ethosu_command_decoder_init(loupe_ethosu_command_decoder* decoder, const void* words,
                                       uint32_t word_count);
/* 1 and *op for the next operation (a STOP too), 0 after STOP or at the end of
 * the words, or a negative status. Register-setting words are checked as
 * they come: an unknown opcode or a cmd1 without payload is an error. */
int loupe_ethosu_command_decoder_next(loupe_ethosu_command_decoder* decoder,
                                      loupe_ethosu_operation* op, loupe_ethosu_error* err);

/* The same as a walk: calls visit for each operation; a non-zero return of
 * visit stops the walk and is returned. */
typedef int (*loupe_ethosu_operation_visitor)(void* user, const loupe_ethosu_operation* op);
int loupe_ethosu_command_stream_walk(const void* words, uint32_t word_count,
                                     loupe_ethosu_command_decoder* decoder,
                                     loupe_ethosu_operation* scratch_op,
                                     loupe_ethosu_operation_visitor visit, void* user,
                                     loupe_ethosu_error* err);

/* 1 for an operation that only controls the NPU (DMA_WAIT, KERNEL_WAIT,
 * IRQ, PMU_MASK): its words are its NPU_OP_* word alone. */
int loupe_ethosu_operation_is_control(const loupe_ethosu_operation* op);

/* "CONV", "POOL AVERAGE", "ELEMENTWISE ADD", "DMA", ... */
const char* loupe_ethosu_operation_name(const loupe_ethosu_operation* op);

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_COMMAND_STREAM_H_ */
