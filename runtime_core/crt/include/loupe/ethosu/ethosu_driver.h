/*
 * Arm's Ethos-U core driver API (hal_ethos_u, ethosu_driver.h), backed by
 * Loupe's functional model instead of an NPU: firmware and the TFLite
 * Micro ethos-u kernel call ethosu_invoke_v3 with the custom operator's
 * payload and the base addresses of its regions, exactly as on a board
 * with the NPU:
 *   region 0  flash: encoded weights, scale records, lookup tables
 *   region 1  scratch: the tensor arena (inputs and outputs live in it)
 *   region 2  fast scratch
 *   3...      further tensors the kernel passes (Vela's streams name 0-2)
 * A malformed payload or stream, or an access outside its region, fails
 * with a code and a message (ethosu_last_error_message), never reads or
 * writes outside the regions given.
 */
#ifndef LOUPE_ETHOSU_DRIVER_H_
#define LOUPE_ETHOSU_DRIVER_H_

#include <stddef.h>
#include <stdint.h>

#include "loupe/ethosu/ethosu_command_stream.h"
#include "loupe/ethosu/ethosu_error.h"
#include "loupe/ethosu/ethosu_execute.h"
#include "loupe/ethosu/ethosu_payload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called before each operation: a non-zero return stops the inference
 * (LOUPE_ETHOSU_ERR_STOPPED). For profiling and views: how many ran, which
 * one runs. */
typedef int (*ethosu_operation_hook)(void* user, const loupe_ethosu_operation* op);

struct ethosu_driver {
  loupe_ethosu_machine machine;
  loupe_ethosu_command_decoder decoder;
  loupe_ethosu_operation operation; /* the one running, or the last */
  loupe_ethosu_error error;
  ethosu_operation_hook hook;
  void* hook_user;
  uint32_t operations_run; /* by the last invoke */
  int initialised;
};

/* Models an NPU (enum loupe_ethosu_accelerator) with a workspace for
 * decoded weights: one OFM block of the largest operation, in int16 values
 * (a few KiB for the usual networks; ethosu_invoke_v3 says how many when too
 * few). */
int loupe_ethosu_driver_init(struct ethosu_driver* drv, int accelerator, int16_t* workspace,
                             uint32_t workspace_values);

void loupe_ethosu_driver_set_hook(struct ethosu_driver* drv, ethosu_operation_hook hook,
                                  void* user);

/* As Arm's driver: 0 on success, negative on failure (here the status,
 * enum loupe_ethosu_status). base_addr[i] is the address of region i
 * (a pointer in this address space), base_addr_size[i] its size in bytes. */
int ethosu_invoke_v3(struct ethosu_driver* drv, const void* custom_data_ptr,
                     const int custom_data_size, uint64_t* const base_addr,
                     const size_t* base_addr_size, const int num_base_addr, void* user_arg);

/* For generated code: runs one Vela operator with a driver kept from one
 * call to the next (initialised on the first call, again when the NPU or the
 * workspace changes), so an operator function needs no driver of its own.
 * Regions 0-2 as TFLite Micro's kernel passes them: the flash, the scratch
 * arena (the feature maps lie in it) and the fast scratch. */
int loupe_ethosu_run_operator(int accelerator, int16_t* workspace, int32_t workspace_values,
                              const void* payload, int32_t payload_size, const void* flash,
                              int32_t flash_size, void* arena, int32_t arena_size, void* fast,
                              int32_t fast_size);
/* Copies `bytes` bytes (a feature map into or out of the arena). */
void loupe_ethosu_copy(void* dst, const void* src, int32_t bytes);
/* What went wrong in the last call ("" after a success). */
const char* ethosu_last_error_message(const struct ethosu_driver* drv);
int ethosu_last_error_code(const struct ethosu_driver* drv);

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_ETHOSU_DRIVER_H_ */
