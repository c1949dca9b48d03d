/*
 * A stand-in for generated code: a run of one operator with the profiling
 * macros. tests/crt/CMakeLists.txt compiles it with TVM_CRT_PROFILING
 * undefined, 0, 1 and empty, and check_profiler_references.cmake reads the
 * objects' symbols: only the profiling builds may reference the profiler.
 */
#include <stdint.h>
#include <tvm/runtime/crt/profiler.h>

int32_t profiler_macro_probe_operator(int32_t x);
int32_t profiler_macro_probe_operator(int32_t x) {
  x = x * 2 + 1;
  TVM_PROFILE_OPERATOR_DONE(7);
  return x;
}
