/*
 * The log hook and the failed-check path of TVM_CRT_CHECK.
 */
#include <stddef.h>
#include <tvm/runtime/crt/logging.h>

static TVMLogHook log_hook;

void TVMSetLogHook(TVMLogHook hook) {
  log_hook = hook;
}

void TVMLogMessage(const char* file, int line, const char* message) {
  if (log_hook != NULL) log_hook(file, line, message);
}

void TVMCheckFailed(const char* file, int line, const char* condition, tvm_crt_error_t code) {
  TVMLogMessage(file, line, condition);
  TVMPlatformAbort(code);
}
