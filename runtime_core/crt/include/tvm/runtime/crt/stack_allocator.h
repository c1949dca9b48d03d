/*
 * A stack (LIFO) allocator over one block of RAM the application gives.
 *
 * For memory whose lifetimes nest, like the AOT executor's workspaces: an
 * allocation is a bump of the top, and only the most recent live allocation
 * may be freed (anything else is refused with kTvmErrorPlatformStackAllocBadFree
 * and changes nothing). Each allocation is preceded by a two-word header that
 * remembers the previous top and the previous allocation, so frees can be
 * checked and undone without any table. The high-water mark records the most
 * of the block ever in use (headers and alignment padding included), which is
 * what the block must be sized for. Deterministic, no malloc, O(1) per call.
 */
#ifndef TVM_RUNTIME_CRT_STACK_ALLOCATOR_H_
#define TVM_RUNTIME_CRT_STACK_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Written just below every allocation, so Free can undo exactly that
 * one. Public so that a block can be sized: each allocation takes its bytes,
 * this header and the padding its alignment needs. */
typedef struct TVMStackAllocationHeader {
  size_t previous_top;       /*!< top before this allocation */
  void* previous_allocation; /*!< last_allocation before this allocation */
} TVMStackAllocationHeader;

typedef struct TVMStackAllocator {
  uint8_t* block;          /*!< start of the managed block */
  size_t num_bytes;        /*!< bytes in the block */
  size_t top;              /*!< bytes in use from the start of the block */
  size_t high_water_bytes; /*!< largest top since Init */
  void* last_allocation;   /*!< the only pointer Free accepts; NULL when empty */
} TVMStackAllocator;

/*! \brief Manage block (num_bytes long, any alignment).
 * kTvmErrorPlatformMemoryInvalidSize for a NULL or empty block. */
tvm_crt_error_t TVMStackAllocator_Init(TVMStackAllocator* alloc, void* block, size_t num_bytes);

/*! \brief Allocate num_bytes (> 0) aligned to TVM_CRT_ALLOC_ALIGNMENT.
 * kTvmErrorPlatformNoMemory, with nothing written, when it does not fit. */
tvm_crt_error_t TVMStackAllocator_Allocate(TVMStackAllocator* alloc, size_t num_bytes,
                                           void** out_ptr);

/*! \brief Allocate num_bytes (> 0) aligned to alignment, a power of two
 * (kTvmErrorInvalidArgument otherwise). Small alignments are rounded up to
 * the header's alignment. */
tvm_crt_error_t TVMStackAllocator_AllocateAligned(TVMStackAllocator* alloc, size_t num_bytes,
                                                  size_t alignment, void** out_ptr);

/*! \brief Free ptr, which must be the most recent live allocation;
 * kTvmErrorPlatformStackAllocBadFree (and no change) otherwise. */
tvm_crt_error_t TVMStackAllocator_Free(TVMStackAllocator* alloc, void* ptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_STACK_ALLOCATOR_H_ */
