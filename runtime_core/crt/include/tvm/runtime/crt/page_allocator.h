/*
 * A page allocator over one block of RAM the application gives.
 *
 * The block is cut into a page table (one uint16_t per page) followed by the
 * pages, aligned to 8 bytes. An allocation takes the first run of free pages
 * long enough (first fit); its first table entry holds the run length, the
 * others TVM_CRT_PAGE_CONTINUATION. Freeing anything that is not the start of
 * a live allocation is a failed check (TVMPlatformAbort): it means the heap's
 * users are already corrupt. Deterministic, no malloc, O(pages) per call.
 */
#ifndef TVM_RUNTIME_CRT_PAGE_ALLOCATOR_H_
#define TVM_RUNTIME_CRT_PAGE_ALLOCATOR_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TVMPageAllocator {
  uint16_t* page_table; /*!< one entry per page: 0 free, run length, or continuation */
  uint8_t* pages;       /*!< first page, 8-byte aligned */
  size_t page_bytes;    /*!< bytes per page */
  size_t num_pages;     /*!< pages in the block */
  size_t pages_in_use;  /*!< pages currently allocated */
} TVMPageAllocator;

#define TVM_CRT_PAGE_FREE ((uint16_t)0)
#define TVM_CRT_PAGE_CONTINUATION ((uint16_t)0xFFFFu)

/*!
 * \brief Manage block (num_bytes long) in pages of page_bytes (a multiple of 8).
 * kTvmErrorPlatformMemoryInvalidSize if not one page fits.
 */
tvm_crt_error_t TVMPageAllocator_Init(TVMPageAllocator* alloc, void* block, size_t num_bytes,
                                      size_t page_bytes);

/*! \brief First-fit allocation of num_bytes (> 0), rounded up to whole pages. */
tvm_crt_error_t TVMPageAllocator_Allocate(TVMPageAllocator* alloc, size_t num_bytes,
                                          void** out_ptr);

/*! \brief Free an allocation; aborts on a pointer that is not one. */
tvm_crt_error_t TVMPageAllocator_Free(TVMPageAllocator* alloc, void* ptr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_PAGE_ALLOCATOR_H_ */
