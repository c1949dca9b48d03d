/* The recording TVMPlatformAbort of test_platform.h. */
#include "test_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <tvm/runtime/crt/platform.h>

jmp_buf test_platform_abort_jump;
int test_platform_abort_armed;
int test_platform_abort_count;
tvm_crt_error_t test_platform_last_abort_code;

void test_platform_arm_abort(void) {
  test_platform_abort_armed = 1;
}
void test_platform_disarm_abort(void) {
  test_platform_abort_armed = 0;
}

void TVMPlatformAbort(tvm_crt_error_t error_code) {
  ++test_platform_abort_count;
  test_platform_last_abort_code = error_code;
  if (test_platform_abort_armed) {
    test_platform_abort_armed = 0;
    longjmp(test_platform_abort_jump, 1);
  }
  printf("unexpected TVMPlatformAbort(0x%x)\n", (unsigned)error_code);
  exit(2);
}
