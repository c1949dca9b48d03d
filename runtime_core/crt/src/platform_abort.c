/*
 * The default TVMPlatformAbort: stop here for good. A board with a way to
 * report the failure (a UART message, a reset, a semihosting exit) defines
 * its own TVMPlatformAbort in its own object file; the linker then never
 * pulls this archive member in. Builds that compile every runtime source
 * directly (the MLF's README build) drop this file when they define their own.
 */
#include <tvm/runtime/crt/platform.h>

TVM_CRT_NORETURN void TVMPlatformAbort(tvm_crt_error_t error_code) {
  volatile tvm_crt_error_t last_error = error_code;
  (void)last_error; /* kept in a volatile so a debugger can read it */
  for (;;) {
  }
}
