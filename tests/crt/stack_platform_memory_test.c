/*
 * TVMPlatformMemoryAllocate/Free of src/platform_memory.c compiled with
 * TVM_CRT_PLATFORM_STACK_ALLOCATOR 1 (stack_platform_config/crt_config.h):
 * allocations come from the given block with no page rounding, and frees must
 * undo the most recent allocation.
 */
#include <stdint.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/stack_allocator.h>

#include "crt_config.h"
#include "crt_test.h"

static union {
  uint64_t align;
  uint8_t bytes[128];
} block;

static void test_the_config_selects_the_stack_allocator(void) {
  CRT_EXPECT_EQ_INT(1, TVM_CRT_PLATFORM_STACK_ALLOCATOR);
}

static void test_allocate_before_init_is_refused(void) {
  void* p = NULL;
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryNotInitialized, TVMPlatformMemoryAllocate(4, &p));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformMemoryNotInitialized, TVMPlatformMemoryFree(p));
}

static void test_platform_memory_is_a_stack_over_the_given_block(void) {
  void* a = NULL;
  void* b = NULL;
  void* c = NULL;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryInit(block.bytes, sizeof(block.bytes)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryAllocate(30, &a));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryAllocate(30, &b));
  CRT_EXPECT((uintptr_t)a % TVM_CRT_ALLOC_ALIGNMENT == 0);
  CRT_EXPECT((uintptr_t)b % TVM_CRT_ALLOC_ALIGNMENT == 0);
  /* No page rounding: the second follows the first and its header closely. */
  CRT_EXPECT((uint8_t*)b - (uint8_t*)a <
             30 + (long)sizeof(TVMStackAllocationHeader) + TVM_CRT_ALLOC_ALIGNMENT);
  CRT_EXPECT((uint8_t*)b + 30 <= block.bytes + sizeof(block.bytes));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMPlatformMemoryAllocate(64, &c));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformStackAllocBadFree, TVMPlatformMemoryFree(a));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryFree(b));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryFree(a));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryAllocate(64, &c));
  CRT_EXPECT(c == a);
}

int main(void) {
  CRT_RUN(test_the_config_selects_the_stack_allocator);
  CRT_RUN(test_allocate_before_init_is_refused);
  CRT_RUN(test_platform_memory_is_a_stack_over_the_given_block);
  return crt_test_exit_code();
}
