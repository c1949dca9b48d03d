/*
 * The custom operator payload Vela writes for Arm's Ethos-U core driver
 * (npu_serialisation.py / driver_actions.py; parsed by ethosu_driver.c of
 * hal_ethos_u): the fourcc "COP1", then driver actions, each a 32-bit tag
 * (bits 0-7 action, 8-15 reserved, 16-31 action data):
 *   OPTIMIZER_CONFIG: data = release (4 bits) and patch (4 bits) of Vela;
 *                     followed by the CONFIG and ID words of the NPU compiled
 *                     for (CONFIG: log2 MACs/cycle 0-3, command stream
 *                     version 4-7, SHRAM KiB 8-15, product 28-31 (0 U55,
 *                     1 U65); ID: arch patch 16-19, minor 20-27, major 28-31)
 *   COMMAND_STREAM:   length in words = reserved << 16 | data, words follow
 *   NOP, RESERVED:    one word, nothing to do
 * The NPU being modelled is described by loupe_ethosu_npu_config.
 */
#ifndef LOUPE_ETHOSU_PAYLOAD_H_
#define LOUPE_ETHOSU_PAYLOAD_H_

#include <stddef.h>
#include <stdint.h>

#include "loupe/ethosu/ethosu_error.h"
#include "loupe/little_endian.h" /* payload words: loupe_le_u32 */

#ifdef __cplusplus
extern "C" {
#endif

#define LOUPE_ETHOSU_FOURCC 0x31504F43u /* "COP1" little-endian */

enum loupe_ethosu_driver_action {
  LOUPE_ETHOSU_DA_RESERVED = 0,
  LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG = 1,
  LOUPE_ETHOSU_DA_COMMAND_STREAM = 2,
  LOUPE_ETHOSU_DA_NOP = 5
};

/* Accelerator configurations (Vela's --accelerator-config). */
enum loupe_ethosu_accelerator {
  LOUPE_ETHOSU_U55_32 = 0,
  LOUPE_ETHOSU_U55_64,
  LOUPE_ETHOSU_U55_128,
  LOUPE_ETHOSU_U55_256,
  LOUPE_ETHOSU_U65_256,
  LOUPE_ETHOSU_U65_512
};

/* What the functional model needs to know of the NPU, and what it checks a
 * payload's OPTIMIZER_CONFIG against. */
typedef struct loupe_ethosu_npu_config {
  uint8_t accelerator;      /* enum loupe_ethosu_accelerator */
  uint8_t product;          /* 0 Ethos-U55, 1 Ethos-U65 */
  uint8_t log2_macs;        /* MACs per cycle, log2, all cores together */
  uint8_t cores;            /* weight/scale streams per operation */
  uint16_t shram_kib;       /* all cores together, as the CONFIG word says */
  uint16_t shram_banks;     /* per core, 1 KiB each */
  uint8_t ifm_ublock_depth; /* weight brick geometry, architecture_features.py */
  uint8_t ofm_ublock_depth;
  uint8_t cmd_stream_version;
  uint8_t arch_major, arch_minor, arch_patch;
  uint32_t lut_shram_address; /* SHRAM byte address of the 2 KiB lookup-table area */
} loupe_ethosu_npu_config;

/* Fills *config for an accelerator; LOUPE_ETHOSU_ERR_ARGUMENT if unknown. */
int loupe_ethosu_npu_config_init(loupe_ethosu_npu_config* config, int accelerator);
/* The CONFIG and ID register values such an NPU reports. */
uint32_t loupe_ethosu_npu_config_word(const loupe_ethosu_npu_config* config);
uint32_t loupe_ethosu_npu_id_word(const loupe_ethosu_npu_config* config);
/* The accelerator a payload's CONFIG word names, or -1. */
int loupe_ethosu_accelerator_from_config_word(uint32_t config_word);

/* One driver action of a payload. */
typedef struct loupe_ethosu_action {
  uint8_t kind;         /* enum loupe_ethosu_driver_action */
  uint32_t word_offset; /* of the tag, in the payload */
  uint32_t word_count;  /* tag included */
  uint32_t config_word; /* OPTIMIZER_CONFIG */
  uint32_t id_word;
  uint8_t release, patch;        /* OPTIMIZER_CONFIG: Vela's release and patch numbers */
  const uint8_t* command_stream; /* COMMAND_STREAM: its first word, in the payload */
  uint32_t command_stream_words;
} loupe_ethosu_action;

typedef struct loupe_ethosu_payload_cursor {
  const uint8_t* data;
  uint32_t words;
  uint32_t next; /* word index of the next tag */
} loupe_ethosu_payload_cursor;

/* Checks the fourcc and the size; then loupe_ethosu_payload_next walks the
 * actions. */
int loupe_ethosu_payload_begin(loupe_ethosu_payload_cursor* cursor, const void* data, size_t size,
                               loupe_ethosu_error* err);
/* 1 and *action for the next action, 0 at the end, or a negative status. */
int loupe_ethosu_payload_next(loupe_ethosu_payload_cursor* cursor, loupe_ethosu_action* action,
                              loupe_ethosu_error* err);

/* Does a payload's OPTIMIZER_CONFIG fit this NPU? The driver's rules:
 * product, MACs and command stream version equal, same architecture major
 * version and a minor version not newer than the NPU's. */
int loupe_ethosu_check_config(const loupe_ethosu_npu_config* npu, uint32_t config_word,
                              uint32_t id_word, loupe_ethosu_error* err);

/* The whole payload at once: every action checked (and, when npu is not
 * NULL, the configuration), *stream and *stream_words set to the (first)
 * command stream. */
int loupe_ethosu_payload_parse(const void* data, size_t size, const loupe_ethosu_npu_config* npu,
                               const uint8_t** stream, uint32_t* stream_words,
                               loupe_ethosu_error* err);

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_PAYLOAD_H_ */
