/*
 * Bare-metal devices (rfcs/000): a device is an opaque pointer, bound to
 * whatever the firmware uses (a driver struct, or the base address of a
 * memory-mapped buffer, which is what TVMDeviceCopyTo/From copy to and from).
 */
#ifndef TVM_RUNTIME_CRT_PLATFORM_BARE_METAL_H_
#define TVM_RUNTIME_CRT_PLATFORM_BARE_METAL_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void* tvm_device_t;

int32_t TVMDevicePlatformBind(tvm_device_t* tvm_dev, void* platform_device);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PLATFORM_BARE_METAL_H_ */
