/*
 * Checks, the log hook and the last-error message: a failed TVM_CRT_CHECK
 * reaches TVMPlatformAbort with its code after logging file, line and the
 * condition; a passing check does nothing; TVMGetLastError truncates safely.
 */
#include <setjmp.h>
#include <string.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/logging.h>

#include "crt_config.h"
#include "crt_test.h"
#include "test_platform.h"

static struct {
  int calls;
  char file[128];
  int line;
  char message[128];
} logged;

static void RecordLog(const char* file, int line, const char* message) {
  ++logged.calls;
  strncpy(logged.file, file, sizeof(logged.file) - 1);
  logged.line = line;
  strncpy(logged.message, message, sizeof(logged.message) - 1);
}

static int CheckPositive(int value) {
  TVM_CRT_CHECK(value > 0, kTvmErrorCheckFailed);
  return value;
}

static void test_failed_check_reaches_the_abort_hook_with_its_code(void) {
  volatile int returned = 0;
  int aborts_before = test_platform_abort_count;
  memset(&logged, 0, sizeof(logged));
  TVMSetLogHook(RecordLog);
  test_platform_arm_abort();
  if (setjmp(test_platform_abort_jump) == 0) {
    CheckPositive(-1);
    returned = 1;
  }
  test_platform_disarm_abort();
  TVMSetLogHook(NULL);
  CRT_EXPECT_EQ_INT(0, returned);
  CRT_EXPECT_EQ_INT(aborts_before + 1, test_platform_abort_count);
  CRT_EXPECT_EQ_INT(kTvmErrorCheckFailed, test_platform_last_abort_code);
  CRT_EXPECT_EQ_INT(1, logged.calls);
  CRT_EXPECT(strstr(logged.file, "logging_test.c") != NULL);
  CRT_EXPECT(logged.line > 0);
  CRT_EXPECT(strcmp(logged.message, "value > 0") == 0);
}

static void test_passing_check_neither_logs_nor_aborts(void) {
  int aborts_before = test_platform_abort_count;
  memset(&logged, 0, sizeof(logged));
  TVMSetLogHook(RecordLog);
  CRT_EXPECT_EQ_INT(5, CheckPositive(5));
  TVMSetLogHook(NULL);
  CRT_EXPECT_EQ_INT(aborts_before, test_platform_abort_count);
  CRT_EXPECT_EQ_INT(0, logged.calls);
}

static void test_failed_check_without_a_log_hook_still_aborts(void) {
  int aborts_before = test_platform_abort_count;
  TVMSetLogHook(NULL);
  test_platform_arm_abort();
  if (setjmp(test_platform_abort_jump) == 0) {
    CheckPositive(0);
  }
  test_platform_disarm_abort();
  CRT_EXPECT_EQ_INT(aborts_before + 1, test_platform_abort_count);
}

static void test_last_error_is_copied_and_truncated(void) {
  char message[TVM_CRT_MAX_ERROR_MESSAGE_BYTES + 16];
  memset(message, 'e', sizeof(message) - 1);
  message[sizeof(message) - 1] = '\0';
  TVMAPISetLastError(message);
  CRT_EXPECT_EQ_INT(TVM_CRT_MAX_ERROR_MESSAGE_BYTES - 1, strlen(TVMGetLastError()));
  strcpy(message, "short");
  TVMAPISetLastError(message);
  message[0] = 'X'; /* the runtime kept its own copy */
  CRT_EXPECT(strcmp(TVMGetLastError(), "short") == 0);
  TVMAPISetLastError(NULL);
  CRT_EXPECT(strcmp(TVMGetLastError(), "") == 0);
}

int main(void) {
  CRT_RUN(test_failed_check_reaches_the_abort_hook_with_its_code);
  CRT_RUN(test_passing_check_neither_logs_nor_aborts);
  CRT_RUN(test_failed_check_without_a_log_hook_still_aborts);
  CRT_RUN(test_last_error_is_copied_and_truncated);
  return crt_test_exit_code();
}
