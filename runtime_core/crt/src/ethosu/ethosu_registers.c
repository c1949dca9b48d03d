/*
 * The register tables of loupe/ethosu/ethosu_registers.h as data: names and
 * positions for listings, grammars and error messages.
 */
#include <loupe/ethosu/ethosu_registers.h>
#include <stddef.h>
#include <string.h>

#define LOUPE_X_COMMAND(kind, name, opcode) \
  {#name, (uint16_t)LOUPE_ETHOSU_##name, (uint8_t)(LOUPE_ETHOSU_CODE_##kind ? 2 : 1)},
const loupe_ethosu_command_info loupe_ethosu_commands[] = {LOUPE_ETHOSU_COMMANDS(LOUPE_X_COMMAND)};
#undef LOUPE_X_COMMAND
const uint32_t loupe_ethosu_command_count =
    (uint32_t)(sizeof(loupe_ethosu_commands) / sizeof(loupe_ethosu_commands[0]));

/* NONE becomes a null enumeration name. */
#define LOUPE_ENUM_NAME_NONE NULL
#define LOUPE_ENUM_NAME(e) LOUPE_ENUM_NAME_##e
#define LOUPE_ENUM_NAME_activation_type "activation_type"
#define LOUPE_ENUM_NAME_activation_precision "activation_precision"
#define LOUPE_ENUM_NAME_activation_format "activation_format"
#define LOUPE_ENUM_NAME_ifm_scale_mode "ifm_scale_mode"
#define LOUPE_ENUM_NAME_ofm_scale_mode "ofm_scale_mode"
#define LOUPE_ENUM_NAME_round_mode "round_mode"
#define LOUPE_ENUM_NAME_upscale_mode "upscale_mode"
#define LOUPE_ENUM_NAME_weight_order "weight_order"
#define LOUPE_ENUM_NAME_acc_format "acc_format"
#define LOUPE_ENUM_NAME_activation_function "activation_function"
#define LOUPE_ENUM_NAME_activation_clip_range "activation_clip_range"
#define LOUPE_ENUM_NAME_pooling_mode "pooling_mode"
#define LOUPE_ENUM_NAME_elementwise_mode "elementwise_mode"
#define LOUPE_ENUM_NAME_dma_region_mode "dma_region_mode"

#define LOUPE_X_FIELD(cmd, field, lsb, width, is_signed, enum_name)                              \
  {(uint16_t)LOUPE_ETHOSU_##cmd, #field, (uint8_t)(lsb), (uint8_t)(width), (uint8_t)(is_signed), \
   LOUPE_ENUM_NAME(enum_name)},
const loupe_ethosu_field_info loupe_ethosu_fields[] = {LOUPE_ETHOSU_FIELDS(LOUPE_X_FIELD)};
#undef LOUPE_X_FIELD
const uint32_t loupe_ethosu_field_count =
    (uint32_t)(sizeof(loupe_ethosu_fields) / sizeof(loupe_ethosu_fields[0]));

#define LOUPE_X_ENUM(enum_name, name, value) {#enum_name, #name, (uint32_t)(value)},
const loupe_ethosu_enum_info loupe_ethosu_enum_values[] = {LOUPE_ETHOSU_ENUM_VALUES(LOUPE_X_ENUM)};
#undef LOUPE_X_ENUM
const uint32_t loupe_ethosu_enum_value_count =
    (uint32_t)(sizeof(loupe_ethosu_enum_values) / sizeof(loupe_ethosu_enum_values[0]));

const loupe_ethosu_command_info* loupe_ethosu_find_command(uint32_t code) {
  uint32_t i;
  code &= (LOUPE_ETHOSU_CONTROL_MASK | LOUPE_ETHOSU_OPCODE_MASK);
  for (i = 0; i < loupe_ethosu_command_count; ++i) {
    if (loupe_ethosu_commands[i].code == code) return &loupe_ethosu_commands[i];
  }
  return NULL;
}

const char* loupe_ethosu_enum_name(const char* enum_name, uint32_t value) {
  uint32_t i;
  if (enum_name == NULL) return NULL;
  for (i = 0; i < loupe_ethosu_enum_value_count; ++i) {
    if (loupe_ethosu_enum_values[i].value == value &&
        strcmp(loupe_ethosu_enum_values[i].enum_name, enum_name) == 0) {
      return loupe_ethosu_enum_values[i].name;
    }
  }
  return NULL;
}
