/*
 * The function and module handle encoding (rfcs/001 layout, with the
 * function-valid bit of internal/function_handle.h): field positions, index
 * limits, and values that must not decode.
 */
#include <stdint.h>
#include <tvm/runtime/crt/internal/function_handle.h>

#include "crt_test.h"

static uint32_t Bits(void* handle) {
  return (uint32_t)(uintptr_t)handle;
}

static void test_global_handles_have_no_module_bit_and_are_never_null(void) {
  CRT_EXPECT_EQ_INT(0x00008000u, Bits(TVMEncodeGlobalFunctionHandle(0)));
  CRT_EXPECT_EQ_INT(0x00008001u, Bits(TVMEncodeGlobalFunctionHandle(1)));
  CRT_EXPECT(TVMEncodeGlobalFunctionHandle(0) != NULL);
}

static void test_module_handles_put_fields_where_the_rfc_draws_them(void) {
  /* bit 31 valid, bits 30..16 module, bit 15 function-valid, bits 14..0 function */
  CRT_EXPECT_EQ_INT(0x80008000u, Bits(TVMEncodeModuleFunctionHandle(0, 0)));
  CRT_EXPECT_EQ_INT(0x80038005u, Bits(TVMEncodeModuleFunctionHandle(3, 5)));
}

static void test_largest_indices_round_trip(void) {
  int is_module = 0;
  tvm_module_index_t module_index = 0;
  uint16_t function_index = 0;
  void* handle = TVMEncodeModuleFunctionHandle(TVM_CRT_HANDLE_MAX_INDEX, TVM_CRT_HANDLE_MAX_INDEX);
  CRT_EXPECT_EQ_INT(0xFFFFFFFFu, Bits(handle));
  CRT_EXPECT(TVMDecodeFunctionHandle(handle, &is_module, &module_index, &function_index));
  CRT_EXPECT_EQ_INT(1, is_module);
  CRT_EXPECT_EQ_INT(0x7FFF, module_index);
  CRT_EXPECT_EQ_INT(0x7FFF, function_index);

  handle = TVMEncodeGlobalFunctionHandle(TVM_CRT_HANDLE_MAX_INDEX);
  CRT_EXPECT(TVMDecodeFunctionHandle(handle, &is_module, &module_index, &function_index));
  CRT_EXPECT_EQ_INT(0, is_module);
  CRT_EXPECT_EQ_INT(0, module_index);
  CRT_EXPECT_EQ_INT(0x7FFF, function_index);
}

static void test_smallest_indices_round_trip(void) {
  int is_module = 1;
  tvm_module_index_t module_index = 9;
  uint16_t function_index = 9;
  CRT_EXPECT(TVMDecodeFunctionHandle(TVMEncodeGlobalFunctionHandle(0), &is_module, &module_index,
                                     &function_index));
  CRT_EXPECT_EQ_INT(0, is_module);
  CRT_EXPECT_EQ_INT(0, function_index);
  CRT_EXPECT(TVMDecodeFunctionHandle(TVMEncodeModuleFunctionHandle(0, 0), &is_module, &module_index,
                                     &function_index));
  CRT_EXPECT_EQ_INT(1, is_module);
  CRT_EXPECT_EQ_INT(0, module_index);
  CRT_EXPECT_EQ_INT(0, function_index);
}

static void test_indices_beyond_the_limit_do_not_spill_into_other_fields(void) {
  /* 0x8000 would overwrite the valid bits; the encoder masks to 15 bits. */
  CRT_EXPECT_EQ_INT(0x80008000u, Bits(TVMEncodeModuleFunctionHandle(0x8000, 0x8000)));
  CRT_EXPECT_EQ_INT(0x00008000u, Bits(TVMEncodeGlobalFunctionHandle(0x8000)));
}

static void test_foreign_values_do_not_decode(void) {
  int is_module;
  tvm_module_index_t module_index;
  uint16_t function_index;
  /* NULL, a missing function-valid bit, and a global handle with module bits. */
  CRT_EXPECT(!TVMDecodeFunctionHandle(NULL, &is_module, &module_index, &function_index));
  CRT_EXPECT(!TVMDecodeFunctionHandle((void*)(uintptr_t)0x80010002u, &is_module, &module_index,
                                      &function_index));
  CRT_EXPECT(!TVMDecodeFunctionHandle((void*)(uintptr_t)0x00018002u, &is_module, &module_index,
                                      &function_index));
  if (sizeof(uintptr_t) > 4) {
    /* Bits above 31 (e.g. a real pointer on a 64-bit host) are not a handle. */
    uintptr_t wide = ((uintptr_t)1 << 16) << 16;
    CRT_EXPECT(!TVMDecodeFunctionHandle((void*)(wide | 0x8000u), &is_module, &module_index,
                                        &function_index));
  }
}

static void test_module_handles_round_trip_and_reject_foreign_values(void) {
  tvm_module_index_t index = 0;
  CRT_EXPECT_EQ_INT(0x8000u, Bits(TVMEncodeModuleHandle(0)));
  CRT_EXPECT(TVMDecodeModuleHandle(TVMEncodeModuleHandle(0), &index));
  CRT_EXPECT_EQ_INT(0, index);
  CRT_EXPECT(TVMDecodeModuleHandle(TVMEncodeModuleHandle(TVM_CRT_HANDLE_MAX_INDEX), &index));
  CRT_EXPECT_EQ_INT(0x7FFF, index);
  CRT_EXPECT(!TVMDecodeModuleHandle(NULL, &index));
  CRT_EXPECT(!TVMDecodeModuleHandle((void*)(uintptr_t)0x0001u, &index));
  /* A function handle is not a module handle. */
  CRT_EXPECT(!TVMDecodeModuleHandle(TVMEncodeModuleFunctionHandle(1, 1), &index));
}

int main(void) {
  CRT_RUN(test_global_handles_have_no_module_bit_and_are_never_null);
  CRT_RUN(test_module_handles_put_fields_where_the_rfc_draws_them);
  CRT_RUN(test_largest_indices_round_trip);
  CRT_RUN(test_smallest_indices_round_trip);
  CRT_RUN(test_indices_beyond_the_limit_do_not_spill_into_other_fields);
  CRT_RUN(test_foreign_values_do_not_decode);
  CRT_RUN(test_module_handles_round_trip_and_reject_foreign_values);
  return crt_test_exit_code();
}
