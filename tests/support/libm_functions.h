// Loupe's float functions (loupe/loupe_libm.h) paired with the C library's,
// for the test and the bench that compare them bit for bit. The library's
// are called through pointers, so that the compiler calls them at run time
// instead of folding or inlining its own versions.
#pragma once

#include <array>
#include <cmath>

#include "loupe/loupe_libm.h"

namespace loupe::test {

struct LibmFunction {
  const char* name;
  float (*loupe)(float);
  float (*library)(float);
};

inline float libraryExpf(float x) {
  return expf(x);
}
inline float libraryLogf(float x) {
  return logf(x);
}
inline float librarySinf(float x) {
  return sinf(x);
}
inline float libraryCosf(float x) {
  return cosf(x);
}
inline float libraryExpm1f(float x) {
  return expm1f(x);
}
inline float libraryTanhf(float x) {
  return tanhf(x);
}

inline constexpr std::array<LibmFunction, 6> kLibmFunctions = {{
    {"expf", loupe_libm_expf, libraryExpf},
    {"logf", loupe_libm_logf, libraryLogf},
    {"sinf", loupe_libm_sinf, librarySinf},
    {"cosf", loupe_libm_cosf, libraryCosf},
    {"expm1f", loupe_libm_expm1f, libraryExpm1f},
    {"tanhf", loupe_libm_tanhf, libraryTanhf},
}};

}  // namespace loupe::test
