/*
 * The default TVMPlatformMemoryAllocate/Free: one allocator over the block the
 * application hands to TVMPlatformMemoryInit. The page allocator unless
 * crt_config.h sets TVM_CRT_PLATFORM_STACK_ALLOCATOR to 1, for firmware whose
 * runtime allocations nest and which wants no page table or page rounding.
 * A platform with its own allocator defines both functions itself and never
 * links this file.
 */
#include <stddef.h>
#include <tvm/runtime/crt/platform.h>

#include "crt_config.h"

/* Only the selected allocator is referenced, so only it is linked. */
#if TVM_CRT_PLATFORM_STACK_ALLOCATOR
#include <tvm/runtime/crt/stack_allocator.h>
typedef TVMStackAllocator PlatformAllocator;
#define PlatformAllocatorInit(alloc, block, num_bytes) \
  TVMStackAllocator_Init((alloc), (block), (num_bytes))
#define PlatformAllocatorAllocate TVMStackAllocator_Allocate
#define PlatformAllocatorFree TVMStackAllocator_Free
#else
#include <tvm/runtime/crt/page_allocator.h>
typedef TVMPageAllocator PlatformAllocator;
#define PlatformAllocatorInit(alloc, block, num_bytes) \
  TVMPageAllocator_Init((alloc), (block), (num_bytes), TVM_CRT_PAGE_BYTES)
#define PlatformAllocatorAllocate TVMPageAllocator_Allocate
#define PlatformAllocatorFree TVMPageAllocator_Free
#endif

static PlatformAllocator platform_allocator;
static int platform_allocator_ready;

tvm_crt_error_t TVMPlatformMemoryInit(void* block, size_t num_bytes) {
  tvm_crt_error_t err = PlatformAllocatorInit(&platform_allocator, block, num_bytes);
  platform_allocator_ready = err == kTvmErrorNoError;
  return err;
}

tvm_crt_error_t TVMPlatformMemoryAllocate(size_t num_bytes, void** out_ptr) {
  if (!platform_allocator_ready) return kTvmErrorPlatformMemoryNotInitialized;
  return PlatformAllocatorAllocate(&platform_allocator, num_bytes, out_ptr);
}

tvm_crt_error_t TVMPlatformMemoryFree(void* ptr) {
  if (!platform_allocator_ready) return kTvmErrorPlatformMemoryNotInitialized;
  return PlatformAllocatorFree(&platform_allocator, ptr);
}
