/*
 * crt_config.h: the compile-time parameters of the embedded C runtime.
 *
 * This is the default configuration, used for the host build and the arm
 * size check. A firmware project overrides it by putting its own crt_config.h
 * earlier on the include path; every parameter here must then be defined.
 * Nothing in the runtime is sized at run time except through these values
 * and the memory blocks the application hands over.
 */
#ifndef TVM_RUNTIME_CRT_CONFIG_H_
#define TVM_RUNTIME_CRT_CONFIG_H_

/*! Support low-level debugging (extra checks, log messages) in the runtime. */
#define TVM_CRT_DEBUG 0

/*! Maximum supported dimension of a tensor. */
#define TVM_CRT_MAX_NDIM 6

/*! Maximum number of arguments TVMFuncCall passes to one function. */
#define TVM_CRT_MAX_ARGS 10

/*! Maximum length of a function name, including the terminating '\0'. */
#define TVM_CRT_MAX_FUNCTION_NAME_BYTES 80

/*! Average function name length (without '\0') that sizes a mutable registry:
 * the capacity of a registry made from an N-byte block is derived from it. */
#define TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES 20

/*! Bytes of the statically allocated block behind the global function
 * registry (names blob plus function table). */
#define TVM_CRT_GLOBAL_FUNC_REGISTRY_BYTES 256

/*! Maximum number of modules registered at once (the system lib is one). */
#define TVM_CRT_MAX_REGISTERED_MODULES 2

/*! Bytes kept for the message returned by TVMGetLastError, including '\0'. */
#define TVM_CRT_MAX_ERROR_MESSAGE_BYTES 64

/*! Default page size of the page allocator behind TVMPlatformMemoryAllocate. */
#define TVM_CRT_PAGE_BYTES 256

/*! Alignment (a power of two) of what the stack allocator hands out unless
 * asked for more: 8 covers double and int64_t on every supported core. */
#define TVM_CRT_ALLOC_ALIGNMENT 8

/*! 1: the default TVMPlatformMemoryAllocate/Free use the stack (LIFO)
 * allocator, which has no page table and no page rounding but frees only in
 * reverse order; 0: the page allocator (frees in any order). */
#define TVM_CRT_PLATFORM_STACK_ALLOCATOR 0

/*! Operators the profiler keeps a table entry for (operator_index 0 to this
 * minus 1); each entry takes 24 bytes of RAM when profiler.c is linked. A
 * board project sizes it to its model with -D. */
#ifndef TVM_CRT_MAX_PROFILED_OPERATORS
#define TVM_CRT_MAX_PROFILED_OPERATORS 256
#endif

/*! Bytes of the RPC session's receive buffer: the longest request payload
 * (session header included) the board accepts, announced to the host as
 * "max request" in STARTED. At least 64, at most 65535. */
#define TVM_CRT_RPC_RECEIVE_BUFFER_BYTES 1024

/*! Device memory blocks the RPC server hands out (ALLOC) and keeps live at
 * once; each table entry takes 12 bytes of RAM on a 32-bit core. */
#define TVM_CRT_RPC_MAX_ALLOCATIONS 16

/* TVM_CRT_PROFILING is deliberately not defined here: the code generator's
 * TVM_PROFILE_OPERATOR_DONE marks are compiled in only when the firmware
 * defines it non-zero (e.g. -DTVM_CRT_PROFILING=1, or in its own crt_config.h). */

#endif /* TVM_RUNTIME_CRT_CONFIG_H_ */
