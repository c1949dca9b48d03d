/*
 * A tiny test runner for the C unit tests of the embedded runtime: plain C99,
 * no framework. Each test is a void function; CRT_RUN prints its name and
 * whether it passed; CRT_EXPECT records a failure with file and line and goes
 * on; a test executable's main returns crt_test_exit_code().
 */
#ifndef LOUPE_TESTS_CRT_CRT_TEST_H_
#define LOUPE_TESTS_CRT_CRT_TEST_H_

#include <stdio.h>

extern int crt_test_failures_in_test;
extern int crt_test_failed_tests;
extern int crt_test_run_tests;

#define CRT_EXPECT(cond)                                             \
  do {                                                               \
    if (!(cond)) {                                                   \
      ++crt_test_failures_in_test;                                   \
      printf("    %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
    }                                                                \
  } while (0)

#define CRT_EXPECT_EQ_INT(expected, actual)                                                \
  do {                                                                                     \
    long long crt_e_ = (long long)(expected), crt_a_ = (long long)(actual);                \
    if (crt_e_ != crt_a_) {                                                                \
      ++crt_test_failures_in_test;                                                         \
      printf("    %s:%d: %s == %s: expected %lld (0x%llx), got %lld (0x%llx)\n", __FILE__, \
             __LINE__, #expected, #actual, crt_e_, (unsigned long long)crt_e_, crt_a_,     \
             (unsigned long long)crt_a_);                                                  \
    }                                                                                      \
  } while (0)

#define CRT_RUN(test) crt_test_run(#test, test)

void crt_test_run(const char* name, void (*test)(void));
int crt_test_exit_code(void);

#endif /* LOUPE_TESTS_CRT_CRT_TEST_H_ */
