/*
 * The configuration of crt_stack_platform_memory_test: the default one, but
 * with the stack allocator behind TVMPlatformMemoryAllocate/Free. Put first
 * on the include path, the way a firmware overrides crt_config.h.
 */
#ifndef LOUPE_TESTS_CRT_STACK_PLATFORM_CONFIG_H_
#define LOUPE_TESTS_CRT_STACK_PLATFORM_CONFIG_H_

#include "../../../runtime_core/crt/config/crt_config.h"

#undef TVM_CRT_PLATFORM_STACK_ALLOCATOR
#define TVM_CRT_PLATFORM_STACK_ALLOCATOR 1

#endif /* LOUPE_TESTS_CRT_STACK_PLATFORM_CONFIG_H_ */
