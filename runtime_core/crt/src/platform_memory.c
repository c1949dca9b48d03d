/*
 * The default TVMPlatformMemoryAllocate/Free: one page allocator over the
 * block the application hands to TVMPlatformMemoryInit. A platform with its
 * own allocator defines both functions itself and never links this file.
 */
#include <stddef.h>
#include <tvm/runtime/crt/page_allocator.h>
#include <tvm/runtime/crt/platform.h>

#include "crt_config.h"

static TVMPageAllocator platform_allocator;
static int platform_allocator_ready;

tvm_crt_error_t TVMPlatformMemoryInit(void* block, size_t num_bytes) {
  tvm_crt_error_t err =
      TVMPageAllocator_Init(&platform_allocator, block, num_bytes, TVM_CRT_PAGE_BYTES);
  platform_allocator_ready = err == kTvmErrorNoError;
  return err;
}

tvm_crt_error_t TVMPlatformMemoryAllocate(size_t num_bytes, void** out_ptr) {
  if (!platform_allocator_ready) return kTvmErrorPlatformMemoryNotInitialized;
  return TVMPageAllocator_Allocate(&platform_allocator, num_bytes, out_ptr);
}

tvm_crt_error_t TVMPlatformMemoryFree(void* ptr) {
  if (!platform_allocator_ready) return kTvmErrorPlatformMemoryNotInitialized;
  return TVMPageAllocator_Free(&platform_allocator, ptr);
}
