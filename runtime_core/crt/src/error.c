/*
 * The last-error message behind TVMGetLastError: one fixed buffer, copied
 * into so callers may pass messages built on their stack.
 */
#include <stddef.h>
#include <tvm/runtime/c_runtime_api.h>

#include "crt_config.h"

static char last_error[TVM_CRT_MAX_ERROR_MESSAGE_BYTES];

const char* TVMGetLastError(void) {
  return last_error;
}

void TVMAPISetLastError(const char* msg) {
  size_t i = 0;
  if (msg != NULL) {
    for (; i + 1 < sizeof(last_error) && msg[i] != '\0'; ++i) last_error[i] = msg[i];
  }
  last_error[i] = '\0';
}
