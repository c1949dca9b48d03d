/*
 * The device API (rfcs/000): how generated code reaches an accelerator or
 * peripheral through whatever the platform (bare metal, an RTOS) calls a device.
 *
 * tvm_device_t is defined by the platform header, chosen at compile time:
 *   TVM_CRT_PLATFORM_HOST defined -> platform/host.h (a device with a lock,
 *                                    the shape an RTOS port takes)
 *   otherwise                     -> platform/bare_metal.h (an opaque pointer)
 * The application owns every tvm_device_t (no allocation): it calls Init, the
 * platform's TVMDevicePlatformBind, and Destroy. The AOT code calls Open and
 * Close around each operator that uses the device and passes the device to
 * the operator as its resource_handle.
 */
#ifndef TVM_RUNTIME_CRT_DEVICE_H_
#define TVM_RUNTIME_CRT_DEVICE_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>

#if defined(TVM_CRT_PLATFORM_HOST)
#include <tvm/runtime/crt/platform/host.h>
#else
#include <tvm/runtime/crt/platform/bare_metal.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

int32_t TVMDeviceInit(tvm_device_t* tvm_dev);
int32_t TVMDeviceOpen(tvm_device_t* tvm_dev);
int32_t TVMDeviceClose(tvm_device_t* tvm_dev);
int32_t TVMDeviceDestroy(tvm_device_t* tvm_dev);

/*! \brief Copy num_bytes from source into the device's memory. The RFC leaves
 * the size out; a copy without one cannot be bounded, so it is a parameter. */
int32_t TVMDeviceCopyTo(const void* source, tvm_device_t* destination, size_t num_bytes);
/*! \brief Copy num_bytes from the device's memory into destination. */
int32_t TVMDeviceCopyFrom(tvm_device_t* source, void* destination, size_t num_bytes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_DEVICE_H_ */
