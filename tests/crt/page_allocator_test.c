/*
 * The page allocator and the default TVMPlatformMemoryAllocate/Free over it:
 * page rounding, exhaustion, free and reuse, fragmentation, and the failed
 * check (TVMPlatformAbort) on freeing what was never allocated.
 */
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/page_allocator.h>
#include <tvm/runtime/crt/platform.h>

#include "crt_config.h"
#include "crt_test.h"
#include "test_platform.h"

#define PAGE 64

static union {
  uint64_t align;
  uint8_t bytes[4 * (PAGE + 2) + 8];
} block;

static void MakeFourPages(TVMPageAllocator* alloc) {
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMPageAllocator_Init(alloc, block.bytes, sizeof(block.bytes), PAGE));
  CRT_EXPECT_EQ_INT(4, alloc->num_pages);
}

static void test_pages_lie_inside_the_block_and_are_aligned(void) {
  TVMPageAllocator alloc;
  MakeFourPages(&alloc);
  CRT_EXPECT((uintptr_t)alloc.pages % 8 == 0);
  CRT_EXPECT((uint8_t*)alloc.page_table >= block.bytes);
  CRT_EXPECT((uint8_t*)(alloc.page_table + 4) <= alloc.pages);
  CRT_EXPECT(alloc.pages + 4 * PAGE <= block.bytes + sizeof(block.bytes));
}

static void test_init_refuses_blocks_without_a_page(void) {
  TVMPageAllocator alloc;
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize,
                    TVMPageAllocator_Init(&alloc, block.bytes, PAGE, PAGE));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize,
                    TVMPageAllocator_Init(&alloc, NULL, sizeof(block.bytes), PAGE));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize,
                    TVMPageAllocator_Init(&alloc, block.bytes, sizeof(block.bytes), 12));
}

static void test_allocations_round_up_to_pages_until_exhausted(void) {
  TVMPageAllocator alloc;
  void* a = NULL;
  void* b = NULL;
  void* c = NULL;
  MakeFourPages(&alloc);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Allocate(&alloc, 1, &a));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Allocate(&alloc, PAGE + 1, &b));
  CRT_EXPECT((uint8_t*)b == (uint8_t*)a + PAGE);
  CRT_EXPECT_EQ_INT(3, alloc.pages_in_use);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMPageAllocator_Allocate(&alloc, PAGE + 1, &c));
  CRT_EXPECT(c == NULL);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Allocate(&alloc, PAGE, &c));
  CRT_EXPECT((uint8_t*)c == (uint8_t*)a + 3 * PAGE);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMPageAllocator_Allocate(&alloc, 1, &c));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryInvalidSize, TVMPageAllocator_Allocate(&alloc, 0, &c));
}

static void test_freed_pages_are_reused(void) {
  TVMPageAllocator alloc;
  void* a;
  void* b;
  void* again = NULL;
  MakeFourPages(&alloc);
  TVMPageAllocator_Allocate(&alloc, 2 * PAGE, &a);
  TVMPageAllocator_Allocate(&alloc, 2 * PAGE, &b);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Free(&alloc, a));
  CRT_EXPECT_EQ_INT(2, alloc.pages_in_use);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Allocate(&alloc, 2 * PAGE, &again));
  CRT_EXPECT(again == a);
  TVMPageAllocator_Free(&alloc, again);
  TVMPageAllocator_Free(&alloc, b);
  CRT_EXPECT_EQ_INT(0, alloc.pages_in_use);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Allocate(&alloc, 4 * PAGE, &again));
  CRT_EXPECT(again == a);
}

static void test_free_pages_that_are_not_contiguous_do_not_satisfy_a_run(void) {
  TVMPageAllocator alloc;
  void* p[4];
  void* big = NULL;
  int i;
  MakeFourPages(&alloc);
  for (i = 0; i < 4; ++i) TVMPageAllocator_Allocate(&alloc, PAGE, &p[i]);
  TVMPageAllocator_Free(&alloc, p[0]);
  TVMPageAllocator_Free(&alloc, p[2]);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMPageAllocator_Allocate(&alloc, 2 * PAGE, &big));
  TVMPageAllocator_Free(&alloc, p[1]);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPageAllocator_Allocate(&alloc, 3 * PAGE, &big));
  CRT_EXPECT(big == p[0]);
}

static void ExpectFreeAborts(TVMPageAllocator* alloc, void* ptr) {
  int aborts_before = test_platform_abort_count;
  test_platform_arm_abort();
  if (setjmp(test_platform_abort_jump) == 0) {
    TVMPageAllocator_Free(alloc, ptr);
  }
  test_platform_disarm_abort();
  CRT_EXPECT_EQ_INT(aborts_before + 1, test_platform_abort_count);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryFreeInvalid, test_platform_last_abort_code);
}

static void test_freeing_what_was_never_allocated_aborts(void) {
  TVMPageAllocator alloc;
  void* a;
  void* b;
  MakeFourPages(&alloc);
  TVMPageAllocator_Allocate(&alloc, 2 * PAGE, &a);
  ExpectFreeAborts(&alloc, (uint8_t*)a + 1);                   /* inside a page */
  ExpectFreeAborts(&alloc, (uint8_t*)a + PAGE);                /* a continuation page */
  ExpectFreeAborts(&alloc, (uint8_t*)a + 2 * PAGE);            /* a free page */
  ExpectFreeAborts(&alloc, block.bytes + sizeof(block.bytes)); /* past the block */
  ExpectFreeAborts(&alloc, &alloc);                            /* somewhere else */
  TVMPageAllocator_Free(&alloc, a);
  ExpectFreeAborts(&alloc, a); /* double free */
  TVMPageAllocator_Allocate(&alloc, PAGE, &b);
  CRT_EXPECT(b == a);
}

static void test_platform_memory_defaults_use_the_given_block(void) {
  static union {
    uint64_t align;
    uint8_t bytes[3 * (TVM_CRT_PAGE_BYTES + 2) + 8];
  } platform_block;
  void* a = NULL;
  void* b = NULL;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMPlatformMemoryInit(platform_block.bytes, sizeof(platform_block.bytes)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryAllocate(2 * TVM_CRT_PAGE_BYTES, &a));
  CRT_EXPECT((uint8_t*)a >= platform_block.bytes &&
             (uint8_t*)a < platform_block.bytes + sizeof(platform_block.bytes));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory,
                    TVMPlatformMemoryAllocate(2 * TVM_CRT_PAGE_BYTES, &b));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryFree(a));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryAllocate(3 * TVM_CRT_PAGE_BYTES, &b));
  CRT_EXPECT(b == a);
}

int main(void) {
  CRT_RUN(test_pages_lie_inside_the_block_and_are_aligned);
  CRT_RUN(test_init_refuses_blocks_without_a_page);
  CRT_RUN(test_allocations_round_up_to_pages_until_exhausted);
  CRT_RUN(test_freed_pages_are_reused);
  CRT_RUN(test_free_pages_that_are_not_contiguous_do_not_satisfy_a_run);
  CRT_RUN(test_freeing_what_was_never_allocated_aborts);
  CRT_RUN(test_platform_memory_defaults_use_the_given_block);
  return crt_test_exit_code();
}
