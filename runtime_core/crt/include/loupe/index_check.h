/*
 * Bounds of indices read at run time (GATHER): the index is checked before it
 * addresses memory, so an operator given one outside its axis fails, as
 * TFLite Micro's does, instead of reading past the tensor. C99, header-only;
 * usable from C++.
 */
#ifndef LOUPE_INDEX_CHECK_H_
#define LOUPE_INDEX_CHECK_H_

#include <stdint.h>

#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 0 when 0 <= index < limit, else kTvmErrorInvalidArgument (the status the
 * operator's function returns at once). */
static inline int32_t loupe_check_index(int32_t index, int32_t limit) {
  return (index >= 0 && index < limit) ? 0 : (int32_t)kTvmErrorInvalidArgument;
}

#ifdef __cplusplus
}
#endif

#endif /* LOUPE_INDEX_CHECK_H_ */
