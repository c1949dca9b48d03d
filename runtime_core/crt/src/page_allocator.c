/*
 * First-fit page allocator over a caller-given block (see page_allocator.h).
 */
#include <stddef.h>
#include <tvm/runtime/crt/logging.h>
#include <tvm/runtime/crt/page_allocator.h>

#define PAGE_ALIGNMENT 8u
/* Run lengths are uint16_t and 0xFFFF marks continuation pages. */
#define MAX_PAGES 0xFFFEu

static uintptr_t AlignUp(uintptr_t value, uintptr_t alignment) {
  return (value + alignment - 1u) & ~(alignment - 1u);
}

tvm_crt_error_t TVMPageAllocator_Init(TVMPageAllocator* alloc, void* block, size_t num_bytes,
                                      size_t page_bytes) {
  uintptr_t start = AlignUp((uintptr_t)block, sizeof(uint16_t));
  uintptr_t end = (uintptr_t)block + num_bytes;
  size_t num_pages;
  size_t i;
  if (block == NULL || page_bytes == 0 || page_bytes % PAGE_ALIGNMENT != 0 || end < start) {
    return kTvmErrorPlatformMemoryInvalidSize;
  }
  /* Each page costs its bytes plus a table entry; leave room for aligning the pages. */
  if ((size_t)(end - start) < PAGE_ALIGNMENT) return kTvmErrorPlatformMemoryInvalidSize;
  num_pages = ((size_t)(end - start) - PAGE_ALIGNMENT) / (page_bytes + sizeof(uint16_t));
  if (num_pages > MAX_PAGES) num_pages = MAX_PAGES;
  if (num_pages == 0) return kTvmErrorPlatformMemoryInvalidSize;

  alloc->page_table = (uint16_t*)start;
  alloc->pages = (uint8_t*)AlignUp(start + num_pages * sizeof(uint16_t), PAGE_ALIGNMENT);
  alloc->page_bytes = page_bytes;
  alloc->num_pages = num_pages;
  alloc->pages_in_use = 0;
  for (i = 0; i < num_pages; ++i) alloc->page_table[i] = TVM_CRT_PAGE_FREE;
  return kTvmErrorNoError;
}

tvm_crt_error_t TVMPageAllocator_Allocate(TVMPageAllocator* alloc, size_t num_bytes,
                                          void** out_ptr) {
  size_t needed;
  size_t run_start = 0;
  size_t run_length = 0;
  size_t i;
  if (num_bytes == 0) return kTvmErrorPlatformMemoryInvalidSize;
  needed = num_bytes / alloc->page_bytes + (num_bytes % alloc->page_bytes != 0);
  if (needed > alloc->num_pages - alloc->pages_in_use) return kTvmErrorPlatformNoMemory;

  for (i = 0; i < alloc->num_pages; ++i) {
    if (alloc->page_table[i] != TVM_CRT_PAGE_FREE) {
      run_length = 0;
      continue;
    }
    if (run_length == 0) run_start = i;
    if (++run_length == needed) {
      size_t p;
      alloc->page_table[run_start] = (uint16_t)needed;
      for (p = run_start + 1; p < run_start + needed; ++p) {
        alloc->page_table[p] = TVM_CRT_PAGE_CONTINUATION;
      }
      alloc->pages_in_use += needed;
      *out_ptr = alloc->pages + run_start * alloc->page_bytes;
      return kTvmErrorNoError;
    }
  }
  /* Enough pages are free, but not contiguously. */
  return kTvmErrorPlatformNoMemory;
}

tvm_crt_error_t TVMPageAllocator_Free(TVMPageAllocator* alloc, void* ptr) {
  uintptr_t offset = (uintptr_t)ptr - (uintptr_t)alloc->pages;
  size_t first;
  size_t length;
  size_t p;
  TVM_CRT_CHECK((uintptr_t)ptr >= (uintptr_t)alloc->pages &&
                    offset < alloc->num_pages * alloc->page_bytes &&
                    offset % alloc->page_bytes == 0,
                kTvmErrorPlatformMemoryFreeInvalid);
  first = offset / alloc->page_bytes;
  length = alloc->page_table[first];
  TVM_CRT_CHECK(length != TVM_CRT_PAGE_FREE && length != TVM_CRT_PAGE_CONTINUATION,
                kTvmErrorPlatformMemoryFreeInvalid);
  for (p = first; p < first + length; ++p) alloc->page_table[p] = TVM_CRT_PAGE_FREE;
  alloc->pages_in_use -= length;
  return kTvmErrorNoError;
}
