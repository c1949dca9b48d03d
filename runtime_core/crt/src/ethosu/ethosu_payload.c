/*
 * The COP1 driver payload (loupe/ethosu/ethosu_payload.h), with the NPU
 * configurations of Vela's architecture_features.py.
 */
#include <loupe/ethosu/ethosu_payload.h>
#include <string.h>

int loupe_ethosu_npu_config_init(loupe_ethosu_npu_config* c, int accelerator) {
  if (c == NULL) return LOUPE_ETHOSU_ERR_ARGUMENT;
  memset(c, 0, sizeof(*c));
  c->accelerator = (uint8_t)accelerator;
  c->cores = 1;
  c->ifm_ublock_depth = 8;
  c->ofm_ublock_depth = 8;
  c->arch_major = 1;
  c->arch_minor = 0;
  c->arch_patch = 6;
  switch (accelerator) {
    case LOUPE_ETHOSU_U55_32:
      c->log2_macs = 5;
      c->shram_banks = 16;
      c->ofm_ublock_depth = 4;
      break;
    case LOUPE_ETHOSU_U55_64:
      c->log2_macs = 6;
      c->shram_banks = 16;
      break;
    case LOUPE_ETHOSU_U55_128:
      c->log2_macs = 7;
      c->shram_banks = 24;
      break;
    case LOUPE_ETHOSU_U55_256:
      c->log2_macs = 8;
      c->shram_banks = 48;
      break;
    case LOUPE_ETHOSU_U65_256:
      c->product = 1;
      c->log2_macs = 8;
      c->shram_banks = 48;
      break;
    case LOUPE_ETHOSU_U65_512:
      c->product = 1;
      c->log2_macs = 9;
      c->shram_banks = 48;
      c->cores = 2;
      break;
    default:
      return LOUPE_ETHOSU_ERR_ARGUMENT;
  }
  c->shram_kib = (uint16_t)(c->shram_banks * c->cores);
  /* The lookup tables take the last two banks of SHRAM (which SHRAMs of
   * more than 16 banks otherwise leave unused). */
  c->lut_shram_address = 1024u * (uint32_t)(c->shram_banks - 2u);
  return LOUPE_ETHOSU_OK;
}

uint32_t loupe_ethosu_npu_config_word(const loupe_ethosu_npu_config* c) {
  return (uint32_t)(c->log2_macs & 0xFu) | ((uint32_t)(c->cmd_stream_version & 0xFu) << 4) |
         ((uint32_t)(c->shram_kib & 0xFFu) << 8) | ((uint32_t)(c->product & 0xFu) << 28);
}

uint32_t loupe_ethosu_npu_id_word(const loupe_ethosu_npu_config* c) {
  return ((uint32_t)(c->arch_patch & 0xFu) << 16) | ((uint32_t)c->arch_minor << 20) |
         ((uint32_t)(c->arch_major & 0xFu) << 28);
}

int loupe_ethosu_accelerator_from_config_word(uint32_t word) {
  int a;
  for (a = LOUPE_ETHOSU_U55_32; a <= LOUPE_ETHOSU_U65_512; ++a) {
    loupe_ethosu_npu_config c;
    loupe_ethosu_npu_config_init(&c, a);
    if ((loupe_ethosu_npu_config_word(&c) & 0xF000FFFFu) == (word & 0xF000FFFFu)) return a;
  }
  return -1;
}

int loupe_ethosu_payload_begin(loupe_ethosu_payload_cursor* cursor, const void* data, size_t size,
                               loupe_ethosu_error* err) {
  const uint8_t* bytes = (const uint8_t*)data;
  if (cursor == NULL || (data == NULL && size != 0)) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "payload: null pointer");
  }
  memset(cursor, 0, sizeof(*cursor));
  if (size < 4) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_FOURCC, "payload: ");
    loupe_ethosu_append_u(err, size);
    loupe_ethosu_append(err, " bytes, too short for the fourcc COP1");
    return LOUPE_ETHOSU_ERR_FOURCC;
  }
  if (loupe_le_u32(bytes) != LOUPE_ETHOSU_FOURCC) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_FOURCC, "payload: fourcc ");
    loupe_ethosu_append_hex(err, loupe_le_u32(bytes));
    loupe_ethosu_append(err, ", expected COP1 (0x31504f43)");
    return LOUPE_ETHOSU_ERR_FOURCC;
  }
  if (size % 4u != 0u || size / 4u > 0xFFFFFFFFu) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_PAYLOAD_SIZE, "payload: size ");
    loupe_ethosu_append_u(err, size);
    loupe_ethosu_append(err, " is not a multiple of 4");
    return LOUPE_ETHOSU_ERR_PAYLOAD_SIZE;
  }
  cursor->data = bytes;
  cursor->words = (uint32_t)(size / 4u);
  cursor->next = 1;
  return LOUPE_ETHOSU_OK;
}

static int truncated(loupe_ethosu_error* err, const char* what, uint32_t at, uint32_t need,
                     uint32_t have) {
  loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ACTION_TRUNCATED, "payload: ");
  loupe_ethosu_append(err, what);
  loupe_ethosu_append(err, " at word ");
  loupe_ethosu_append_u(err, at);
  loupe_ethosu_append(err, " needs ");
  loupe_ethosu_append_u(err, need);
  loupe_ethosu_append(err, " words, the payload has ");
  loupe_ethosu_append_u(err, have);
  loupe_ethosu_append(err, " left");
  return LOUPE_ETHOSU_ERR_ACTION_TRUNCATED;
}

int loupe_ethosu_payload_next(loupe_ethosu_payload_cursor* cursor, loupe_ethosu_action* action,
                              loupe_ethosu_error* err) {
  uint32_t at;
  uint32_t tag;
  uint32_t left;
  if (cursor == NULL || action == NULL || cursor->data == NULL) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_ARGUMENT, "payload: null pointer");
  }
  at = cursor->next;
  if (at >= cursor->words) return 0;
  memset(action, 0, sizeof(*action));
  tag = loupe_le_u32(cursor->data + 4u * at);
  left = cursor->words - at;
  action->kind = (uint8_t)(tag & 0xFFu);
  action->word_offset = at;
  switch (action->kind) {
    case LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG:
      if (left < 3u) return truncated(err, "OPTIMIZER_CONFIG", at, 3u, left);
      action->word_count = 3;
      action->release = (uint8_t)((tag >> 16) & 0xFu);
      action->patch = (uint8_t)((tag >> 20) & 0xFu);
      action->config_word = loupe_le_u32(cursor->data + 4u * (at + 1u));
      action->id_word = loupe_le_u32(cursor->data + 4u * (at + 2u));
      break;
    case LOUPE_ETHOSU_DA_COMMAND_STREAM: {
      uint32_t length = (((tag >> 8) & 0xFFu) << 16) | (tag >> 16);
      if (length > left - 1u) return truncated(err, "COMMAND_STREAM", at, length + 1u, left);
      action->word_count = length + 1u;
      action->command_stream = cursor->data + 4u * (at + 1u);
      action->command_stream_words = length;
      break;
    }
    case LOUPE_ETHOSU_DA_NOP:
    case LOUPE_ETHOSU_DA_RESERVED:
      action->word_count = 1;
      break;
    default:
      loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_UNKNOWN_ACTION, "payload: unknown driver action ");
      loupe_ethosu_append_u(err, action->kind);
      loupe_ethosu_append(err, " at word ");
      loupe_ethosu_append_u(err, at);
      loupe_ethosu_append(err,
                          " (expected 0 RESERVED, 1 OPTIMIZER_CONFIG, 2 COMMAND_STREAM or 5 NOP)");
      return LOUPE_ETHOSU_ERR_UNKNOWN_ACTION;
  }
  cursor->next = at + action->word_count;
  return 1;
}

static void append_config(loupe_ethosu_error* err, uint32_t config_word) {
  loupe_ethosu_append(err, config_word >> 28 == 1u ? "U65" : "U55");
  loupe_ethosu_append(err, " with ");
  loupe_ethosu_append_u(err, (uint64_t)1 << (config_word & 0xFu));
  loupe_ethosu_append(err, " MACs, ");
  loupe_ethosu_append_u(err, (config_word >> 8) & 0xFFu);
  loupe_ethosu_append(err, " KiB SHRAM");
}

int loupe_ethosu_check_config(const loupe_ethosu_npu_config* npu, uint32_t config_word,
                              uint32_t id_word, loupe_ethosu_error* err) {
  uint32_t hw = loupe_ethosu_npu_config_word(npu);
  uint32_t hw_id = loupe_ethosu_npu_id_word(npu);
  int ok = 1;
  if (hw != config_word) {
    /* Product, MACs and stream version must match; the SHRAM size is the
     * compiler's business (the driver does not compare it). */
    if ((hw >> 28) != (config_word >> 28) || (hw & 0xFu) != (config_word & 0xFu) ||
        ((hw >> 4) & 0xFu) != ((config_word >> 4) & 0xFu)) {
      ok = 0;
    }
  }
  if ((hw_id >> 28) != (id_word >> 28) || ((hw_id >> 20) & 0xFFu) < ((id_word >> 20) & 0xFFu)) {
    ok = 0;
  }
  if (!ok) {
    loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_CONFIG_MISMATCH, "payload: compiled for Ethos-");
    append_config(err, config_word);
    loupe_ethosu_append(err, " (CONFIG ");
    loupe_ethosu_append_hex(err, config_word);
    loupe_ethosu_append(err, ", ID ");
    loupe_ethosu_append_hex(err, id_word);
    loupe_ethosu_append(err, "), the modelled NPU is Ethos-");
    append_config(err, hw);
    return LOUPE_ETHOSU_ERR_CONFIG_MISMATCH;
  }
  return LOUPE_ETHOSU_OK;
}

int loupe_ethosu_payload_parse(const void* data, size_t size, const loupe_ethosu_npu_config* npu,
                               const uint8_t** stream, uint32_t* stream_words,
                               loupe_ethosu_error* err) {
  loupe_ethosu_payload_cursor cursor;
  loupe_ethosu_action action;
  int status = loupe_ethosu_payload_begin(&cursor, data, size, err);
  int found = 0;
  if (status != LOUPE_ETHOSU_OK) return status;
  while ((status = loupe_ethosu_payload_next(&cursor, &action, err)) == 1) {
    if (action.kind == LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG && npu != NULL) {
      status = loupe_ethosu_check_config(npu, action.config_word, action.id_word, err);
      if (status != LOUPE_ETHOSU_OK) return status;
    } else if (action.kind == LOUPE_ETHOSU_DA_COMMAND_STREAM && !found) {
      found = 1;
      if (stream != NULL) *stream = action.command_stream;
      if (stream_words != NULL) *stream_words = action.command_stream_words;
    }
  }
  if (status < 0) return status;
  if (!found) {
    return loupe_ethosu_fail(err, LOUPE_ETHOSU_ERR_NO_COMMAND_STREAM,
                             "payload: no COMMAND_STREAM action");
  }
  return LOUPE_ETHOSU_OK;
}
