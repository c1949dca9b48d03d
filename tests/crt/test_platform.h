/*
 * A test platform for the embedded runtime: TVMPlatformAbort records the code
 * and jumps back into the test instead of halting. Use as
 *   test_platform_arm_abort();
 *   if (setjmp(test_platform_abort_jump) == 0) { code that should abort; }
 *   test_platform_disarm_abort();
 * then check test_platform_abort_count / test_platform_last_abort_code.
 * An abort nobody expects prints the code and exits the test with failure.
 */
#ifndef LOUPE_TESTS_CRT_TEST_PLATFORM_H_
#define LOUPE_TESTS_CRT_TEST_PLATFORM_H_

#include <setjmp.h>
#include <tvm/runtime/crt/error_codes.h>

extern jmp_buf test_platform_abort_jump;
extern int test_platform_abort_armed;
extern int test_platform_abort_count;
extern tvm_crt_error_t test_platform_last_abort_code;

/* Make the next TVMPlatformAbort jump back to the armed setjmp. */
void test_platform_arm_abort(void);
/* Call after the guarded block. */
void test_platform_disarm_abort(void);

#endif /* LOUPE_TESTS_CRT_TEST_PLATFORM_H_ */
