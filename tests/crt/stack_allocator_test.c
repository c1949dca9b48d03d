/*
 * The stack (LIFO) allocator: alignment of every allocation, exhaustion that
 * returns an error and writes nothing (guard bytes around and the free part
 * of the block stay as they were), frees refused unless they undo the most
 * recent allocation, and the high-water mark a block must be sized for.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/stack_allocator.h>

#include "crt_config.h"
#include "crt_test.h"

#define BLOCK_BYTES 256
#define GUARD_BYTES 32
#define PATTERN 0xA5

/* guard | block | guard, 64-byte aligned so the tests choose the misalignment. */
static union {
  uint64_t align;
  uint8_t bytes[GUARD_BYTES + BLOCK_BYTES + 64 + GUARD_BYTES];
} memory;

static uint8_t* Block(void) {
  return memory.bytes + GUARD_BYTES;
}

static void FillPattern(void) {
  memset(memory.bytes, PATTERN, sizeof(memory.bytes));
}

static int BytesArePattern(const uint8_t* from, const uint8_t* to) {
  for (; from < to; ++from) {
    if (*from != PATTERN) return 0;
  }
  return 1;
}

static int InsideBlock(const TVMStackAllocator* alloc, const void* ptr, size_t num_bytes) {
  const uint8_t* p = (const uint8_t*)ptr;
  return p >= alloc->block && p + num_bytes <= alloc->block + alloc->num_bytes;
}

static void test_init_refuses_a_missing_or_empty_block(void) {
  TVMStackAllocator alloc;
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize,
                    TVMStackAllocator_Init(&alloc, NULL, BLOCK_BYTES));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize, TVMStackAllocator_Init(&alloc, Block(), 0));
}

static void test_allocations_are_aligned_even_in_a_misaligned_block(void) {
  TVMStackAllocator alloc;
  void* p[5];
  size_t offset;
  for (offset = 0; offset < 8; ++offset) {
    CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                      TVMStackAllocator_Init(&alloc, Block() + offset, BLOCK_BYTES));
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_Allocate(&alloc, 3, &p[0]));
    CRT_EXPECT((uintptr_t)p[0] % TVM_CRT_ALLOC_ALIGNMENT == 0);
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_AllocateAligned(&alloc, 5, 16, &p[1]));
    CRT_EXPECT((uintptr_t)p[1] % 16 == 0);
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_AllocateAligned(&alloc, 1, 64, &p[2]));
    CRT_EXPECT((uintptr_t)p[2] % 64 == 0);
    /* Below the header's own alignment it is rounded up, never down. */
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_AllocateAligned(&alloc, 1, 1, &p[3]));
    CRT_EXPECT((uintptr_t)p[3] % sizeof(void*) == 0);
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_Allocate(&alloc, 7, &p[4]));
    CRT_EXPECT((uintptr_t)p[4] % TVM_CRT_ALLOC_ALIGNMENT == 0);
    /* Each lies in the block, after the one before (a stack grows one way). */
    CRT_EXPECT(InsideBlock(&alloc, p[0], 3));
    CRT_EXPECT((uint8_t*)p[1] >= (uint8_t*)p[0] + 3 && InsideBlock(&alloc, p[1], 5));
    CRT_EXPECT((uint8_t*)p[2] >= (uint8_t*)p[1] + 5 && InsideBlock(&alloc, p[2], 1));
    CRT_EXPECT((uint8_t*)p[3] >= (uint8_t*)p[2] + 1 && InsideBlock(&alloc, p[3], 1));
    CRT_EXPECT((uint8_t*)p[4] >= (uint8_t*)p[3] + 1 && InsideBlock(&alloc, p[4], 7));
  }
}

static void test_alignment_must_be_a_power_of_two(void) {
  TVMStackAllocator alloc;
  void* p = NULL;
  TVMStackAllocator_Init(&alloc, Block(), BLOCK_BYTES);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMStackAllocator_AllocateAligned(&alloc, 4, 0, &p));
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMStackAllocator_AllocateAligned(&alloc, 4, 12, &p));
  CRT_EXPECT(p == NULL);
  CRT_EXPECT_EQ_INT(0, alloc.top);
}

static void test_zero_bytes_is_refused(void) {
  TVMStackAllocator alloc;
  void* p = NULL;
  TVMStackAllocator_Init(&alloc, Block(), BLOCK_BYTES);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize, TVMStackAllocator_Allocate(&alloc, 0, &p));
  CRT_EXPECT(p == NULL);
}

static void test_exhaustion_returns_an_error_and_writes_nothing(void) {
  TVMStackAllocator alloc;
  void* p = NULL;
  void* refused = NULL;
  size_t top_before;
  int allocations = 0;
  FillPattern();
  TVMStackAllocator_Init(&alloc, Block() + 1, BLOCK_BYTES);
  while (TVMStackAllocator_Allocate(&alloc, 24, &p) == kTvmErrorNoError) {
    CRT_EXPECT(InsideBlock(&alloc, p, 24));
    memset(p, 0x11, 24); /* the caller uses all it asked for */
    ++allocations;
  }
  CRT_EXPECT(allocations > 0);
  top_before = alloc.top;
  /* Too large now, far too large, and so large that a careless sum wraps. */
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMStackAllocator_Allocate(&alloc, 24, &refused));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory,
                    TVMStackAllocator_Allocate(&alloc, 10 * BLOCK_BYTES, &refused));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory,
                    TVMStackAllocator_Allocate(&alloc, SIZE_MAX, &refused));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory,
                    TVMStackAllocator_AllocateAligned(&alloc, 1, 64, &refused));
  CRT_EXPECT(refused == NULL);
  CRT_EXPECT_EQ_INT(top_before, alloc.top);
  CRT_EXPECT(alloc.last_allocation == p);
  /* Nothing written before the block, in its unused tail, or after it. */
  CRT_EXPECT(BytesArePattern(memory.bytes, Block() + 1));
  CRT_EXPECT(BytesArePattern(alloc.block + alloc.top, memory.bytes + sizeof(memory.bytes)));
}

static void test_an_allocation_may_fill_the_block_exactly(void) {
  TVMStackAllocator alloc;
  void* first = NULL;
  void* rest = NULL;
  FillPattern();
  TVMStackAllocator_Init(&alloc, Block(), BLOCK_BYTES);
  TVMStackAllocator_Allocate(&alloc, 8, &first);
  /* The next data starts right after its header, without padding... */
  CRT_EXPECT((alloc.top + sizeof(TVMStackAllocationHeader)) % TVM_CRT_ALLOC_ALIGNMENT == 0);
  /* ...so everything after that header is exactly what is left. */
  CRT_EXPECT_EQ_INT(
      kTvmErrorPlatformNoMemory,
      TVMStackAllocator_Allocate(
          &alloc, BLOCK_BYTES - alloc.top - sizeof(TVMStackAllocationHeader) + 1, &rest));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMStackAllocator_Allocate(
                        &alloc, BLOCK_BYTES - alloc.top - sizeof(TVMStackAllocationHeader), &rest));
  CRT_EXPECT_EQ_INT(BLOCK_BYTES, alloc.top);
  CRT_EXPECT(BytesArePattern(Block() + BLOCK_BYTES, memory.bytes + sizeof(memory.bytes)));
}

static void test_only_the_most_recent_allocation_may_be_freed(void) {
  TVMStackAllocator alloc;
  void* a;
  void* b;
  void* c;
  size_t top_with_b;
  int not_allocated;
  TVMStackAllocator_Init(&alloc, Block(), BLOCK_BYTES);
  TVMStackAllocator_Allocate(&alloc, 10, &a);
  TVMStackAllocator_Allocate(&alloc, 20, &b);
  top_with_b = alloc.top;

  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree, TVMStackAllocator_Free(&alloc, a));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree,
                    TVMStackAllocator_Free(&alloc, (uint8_t*)b + 1));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree, TVMStackAllocator_Free(&alloc, NULL));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree,
                    TVMStackAllocator_Free(&alloc, &not_allocated));
  CRT_EXPECT_EQ_INT(top_with_b, alloc.top); /* refused frees change nothing */

  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_Free(&alloc, b));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree, TVMStackAllocator_Free(&alloc, b));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_Free(&alloc, a));
  CRT_EXPECT_EQ_INT(0, alloc.top);
  CRT_EXPECT(alloc.last_allocation == NULL);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree, TVMStackAllocator_Free(&alloc, a));

  /* Freed memory is reused from the same place. */
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMStackAllocator_Allocate(&alloc, 10, &c));
  CRT_EXPECT(c == a);
}

static void test_the_high_water_mark_keeps_the_most_ever_used(void) {
  TVMStackAllocator alloc;
  void* a;
  void* b;
  void* c;
  size_t peak;
  TVMStackAllocator_Init(&alloc, Block(), BLOCK_BYTES);
  CRT_EXPECT_EQ_INT(0, alloc.high_water_bytes);
  TVMStackAllocator_Allocate(&alloc, 40, &a);
  CRT_EXPECT_EQ_INT(alloc.top, alloc.high_water_bytes);
  TVMStackAllocator_Allocate(&alloc, 100, &b);
  peak = alloc.top;
  /* It counts the headers too: more than the 140 bytes asked for. */
  CRT_EXPECT(peak >= 140 + 2 * sizeof(TVMStackAllocationHeader));
  CRT_EXPECT_EQ_INT(peak, alloc.high_water_bytes);
  TVMStackAllocator_Free(&alloc, b);
  TVMStackAllocator_Free(&alloc, a);
  CRT_EXPECT_EQ_INT(0, alloc.top);
  CRT_EXPECT_EQ_INT(peak, alloc.high_water_bytes);
  TVMStackAllocator_Allocate(&alloc, 60, &c);
  CRT_EXPECT_EQ_INT(peak, alloc.high_water_bytes);
  /* A fresh Init starts a new measurement. */
  TVMStackAllocator_Init(&alloc, Block(), BLOCK_BYTES);
  CRT_EXPECT_EQ_INT(0, alloc.high_water_bytes);
}

int main(void) {
  CRT_RUN(test_init_refuses_a_missing_or_empty_block);
  CRT_RUN(test_allocations_are_aligned_even_in_a_misaligned_block);
  CRT_RUN(test_alignment_must_be_a_power_of_two);
  CRT_RUN(test_zero_bytes_is_refused);
  CRT_RUN(test_exhaustion_returns_an_error_and_writes_nothing);
  CRT_RUN(test_an_allocation_may_fill_the_block_exactly);
  CRT_RUN(test_only_the_most_recent_allocation_may_be_freed);
  CRT_RUN(test_the_high_water_mark_keeps_the_most_ever_used);
  return crt_test_exit_code();
}
