/* The runner behind crt_test.h. */
#include "crt_test.h"

int crt_test_failures_in_test;
int crt_test_failed_tests;
int crt_test_run_tests;

void crt_test_run(const char* name, void (*test)(void)) {
  crt_test_failures_in_test = 0;
  printf("RUN  %s\n", name);
  test();
  ++crt_test_run_tests;
  if (crt_test_failures_in_test != 0) {
    ++crt_test_failed_tests;
    printf("FAIL %s (%d failed expectations)\n", name, crt_test_failures_in_test);
  } else {
    printf("PASS %s\n", name);
  }
}

int crt_test_exit_code(void) {
  printf("%d tests, %d failed\n", crt_test_run_tests, crt_test_failed_tests);
  return crt_test_failed_tests == 0 ? 0 : 1;
}
