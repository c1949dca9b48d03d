/*
 * LIFO allocator over a caller-given block (see stack_allocator.h).
 */
#include <stddef.h>
#include <tvm/runtime/crt/stack_allocator.h>

#include "crt_config.h"

/* C99 has no alignof; the offset of a member after a char is its alignment. */
struct StackAllocationHeaderAlignment {
  char c;
  TVMStackAllocationHeader header;
};
#define HEADER_ALIGNMENT offsetof(struct StackAllocationHeaderAlignment, header)

tvm_crt_error_t TVMStackAllocator_Init(TVMStackAllocator* alloc, void* block, size_t num_bytes) {
  if (block == NULL || num_bytes == 0) return kTvmErrorPlatformMemoryInvalidSize;
  alloc->block = (uint8_t*)block;
  alloc->num_bytes = num_bytes;
  alloc->top = 0;
  alloc->high_water_bytes = 0;
  alloc->last_allocation = NULL;
  return kTvmErrorNoError;
}

tvm_crt_error_t TVMStackAllocator_Allocate(TVMStackAllocator* alloc, size_t num_bytes,
                                           void** out_ptr) {
  return TVMStackAllocator_AllocateAligned(alloc, num_bytes, TVM_CRT_ALLOC_ALIGNMENT, out_ptr);
}

tvm_crt_error_t TVMStackAllocator_AllocateAligned(TVMStackAllocator* alloc, size_t num_bytes,
                                                  size_t alignment, void** out_ptr) {
  uintptr_t free_start;
  size_t padding;
  size_t data_offset;
  TVMStackAllocationHeader* header;
  if (num_bytes == 0) return kTvmErrorPlatformMemoryInvalidSize;
  if (alignment == 0 || (alignment & (alignment - 1u)) != 0) return kTvmErrorInvalidArgument;
  /* The header sits right below the data, so the data must be aligned for it too. */
  if (alignment < HEADER_ALIGNMENT) alignment = HEADER_ALIGNMENT;

  free_start = (uintptr_t)alloc->block + alloc->top;
  padding = (alignment - (free_start + sizeof(TVMStackAllocationHeader)) % alignment) % alignment;
  /* Checked in two steps so that a huge num_bytes cannot wrap around. */
  if (sizeof(TVMStackAllocationHeader) + padding > alloc->num_bytes - alloc->top) {
    return kTvmErrorPlatformNoMemory;
  }
  data_offset = alloc->top + sizeof(TVMStackAllocationHeader) + padding;
  if (num_bytes > alloc->num_bytes - data_offset) return kTvmErrorPlatformNoMemory;

  header =
      (TVMStackAllocationHeader*)(alloc->block + data_offset - sizeof(TVMStackAllocationHeader));
  header->previous_top = alloc->top;
  header->previous_allocation = alloc->last_allocation;
  alloc->last_allocation = alloc->block + data_offset;
  alloc->top = data_offset + num_bytes;
  if (alloc->top > alloc->high_water_bytes) alloc->high_water_bytes = alloc->top;
  *out_ptr = alloc->last_allocation;
  return kTvmErrorNoError;
}

tvm_crt_error_t TVMStackAllocator_Free(TVMStackAllocator* alloc, void* ptr) {
  const TVMStackAllocationHeader* header;
  if (ptr == NULL || ptr != alloc->last_allocation) return kTvmErrorPlatformStackAllocBadFree;
  header = (const TVMStackAllocationHeader*)((uint8_t*)ptr - sizeof(TVMStackAllocationHeader));
  alloc->top = header->previous_top;
  alloc->last_allocation = header->previous_allocation;
  return kTvmErrorNoError;
}
