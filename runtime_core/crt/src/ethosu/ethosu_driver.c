/*
 * ethosu_invoke_v3 on the functional model (loupe/ethosu/ethosu_driver.h):
 * the payload's driver actions in order, each command stream decoded and
 * run one operation at a time.
 */
#include <loupe/ethosu/ethosu_driver.h>
#include <stdint.h>
#include <string.h>

int loupe_ethosu_driver_init(struct ethosu_driver* drv, int accelerator, int16_t* workspace,
                             uint32_t workspace_values) {
  loupe_ethosu_npu_config config;
  int status;
  if (drv == NULL) return LOUPE_ETHOSU_ERR_ARGUMENT;
  memset(drv, 0, sizeof(*drv));
  status = loupe_ethosu_npu_config_init(&config, accelerator);
  if (status != LOUPE_ETHOSU_OK) {
    loupe_ethosu_fail(&drv->error, status, "driver: unknown accelerator ");
    loupe_ethosu_append_i(&drv->error, accelerator);
    return status;
  }
  status = loupe_ethosu_machine_init(&drv->machine, &config, workspace, workspace_values);
  if (status != LOUPE_ETHOSU_OK) return loupe_ethosu_fail(&drv->error, status, "driver: init");
  drv->initialised = 1;
  return LOUPE_ETHOSU_OK;
}

void loupe_ethosu_driver_set_hook(struct ethosu_driver* drv, ethosu_operation_hook hook,
                                  void* user) {
  if (drv == NULL) return;
  drv->hook = hook;
  drv->hook_user = user;
}

const char* ethosu_last_error_message(const struct ethosu_driver* drv) {
  return drv == NULL ? "driver: null pointer" : drv->error.message;
}

int ethosu_last_error_code(const struct ethosu_driver* drv) {
  return drv == NULL ? LOUPE_ETHOSU_ERR_ARGUMENT : drv->error.code;
}

static int run_stream(struct ethosu_driver* drv, const uint8_t* words, uint32_t count) {
  int status;
  loupe_ethosu_command_decoder_init(&drv->decoder, words, count);
  while ((status = loupe_ethosu_command_decoder_next(&drv->decoder, &drv->operation,
                                                     &drv->error)) == 1) {
    if (drv->hook != NULL && drv->hook(drv->hook_user, &drv->operation) != 0) {
      loupe_ethosu_fail(&drv->error, LOUPE_ETHOSU_ERR_STOPPED,
                        "driver: stopped by the hook at operation ");
      loupe_ethosu_append_u(&drv->error, drv->operation.index);
      return LOUPE_ETHOSU_ERR_STOPPED;
    }
    status = loupe_ethosu_execute(&drv->machine, &drv->operation, &drv->error);
    if (status != LOUPE_ETHOSU_OK) return status;
    drv->operations_run++;
  }
  return status;
}

int ethosu_invoke_v3(struct ethosu_driver* drv, const void* custom_data_ptr,
                     const int custom_data_size, uint64_t* const base_addr,
                     const size_t* base_addr_size, const int num_base_addr, void* user_arg) {
  loupe_ethosu_payload_cursor cursor;
  loupe_ethosu_action action;
  int status;
  int i;
  int streams = 0;
  (void)user_arg;
  if (drv == NULL) return LOUPE_ETHOSU_ERR_ARGUMENT;
  loupe_ethosu_clear_error(&drv->error);
  drv->operations_run = 0;
  if (!drv->initialised) {
    return loupe_ethosu_fail(&drv->error, LOUPE_ETHOSU_ERR_ARGUMENT,
                             "driver: not initialised (loupe_ethosu_driver_init)");
  }
  if (custom_data_ptr == NULL || custom_data_size < 0 || num_base_addr < 0 ||
      (num_base_addr > 0 && (base_addr == NULL || base_addr_size == NULL))) {
    return loupe_ethosu_fail(&drv->error, LOUPE_ETHOSU_ERR_ARGUMENT,
                             "driver: null payload or base addresses, or a negative size");
  }
  for (i = 0; i < LOUPE_ETHOSU_REGIONS; ++i) {
    drv->machine.regions[i].data = NULL;
    drv->machine.regions[i].size = 0;
    if (i < num_base_addr) {
      drv->machine.regions[i].data = (uint8_t*)(uintptr_t)base_addr[i];
      drv->machine.regions[i].size = drv->machine.regions[i].data == NULL ? 0u : base_addr_size[i];
    }
  }
  status =
      loupe_ethosu_payload_begin(&cursor, custom_data_ptr, (size_t)custom_data_size, &drv->error);
  if (status != LOUPE_ETHOSU_OK) return status;
  while ((status = loupe_ethosu_payload_next(&cursor, &action, &drv->error)) == 1) {
    if (action.kind == LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG) {
      status = loupe_ethosu_check_config(&drv->machine.config, action.config_word, action.id_word,
                                         &drv->error);
      if (status != LOUPE_ETHOSU_OK) return status;
    } else if (action.kind == LOUPE_ETHOSU_DA_COMMAND_STREAM) {
      ++streams;
      status = run_stream(drv, action.command_stream, action.command_stream_words);
      if (status < 0) return status;
    }
  }
  if (status < 0) return status;
  if (streams == 0) {
    return loupe_ethosu_fail(&drv->error, LOUPE_ETHOSU_ERR_NO_COMMAND_STREAM,
                             "payload: no COMMAND_STREAM action");
  }
  loupe_ethosu_clear_error(&drv->error);
  return LOUPE_ETHOSU_OK;
}

int loupe_ethosu_run_operator(int accelerator, int16_t* workspace, int32_t workspace_values,
                              const void* payload, int32_t payload_size, const void* flash,
                              int32_t flash_size, void* arena, int32_t arena_size, void* fast,
                              int32_t fast_size) {
  /* A few KiB of decoder and machine state: static, never on the stack. */
  static struct ethosu_driver driver;
  static int driver_accelerator = -1;
  static int16_t* driver_workspace = NULL;
  uint64_t base[3];
  size_t sizes[3];
  if (!driver.initialised || driver_accelerator != accelerator || driver_workspace != workspace) {
    int status = loupe_ethosu_driver_init(&driver, accelerator, workspace,
                                          (uint32_t)(workspace_values > 0 ? workspace_values : 0));
    if (status != 0) return status;
    driver_accelerator = accelerator;
    driver_workspace = workspace;
  }
  base[0] = (uint64_t)(uintptr_t)flash;
  base[1] = (uint64_t)(uintptr_t)arena;
  base[2] = (uint64_t)(uintptr_t)fast;
  sizes[0] = flash_size > 0 ? (size_t)flash_size : 0u;
  sizes[1] = arena_size > 0 ? (size_t)arena_size : 0u;
  sizes[2] = fast_size > 0 ? (size_t)fast_size : 0u;
  return ethosu_invoke_v3(&driver, payload, (int)payload_size, base, sizes, 3, NULL);
}

void loupe_ethosu_copy(void* dst, const void* src, int32_t bytes) {
  if (bytes > 0) memcpy(dst, src, (size_t)bytes);
}
