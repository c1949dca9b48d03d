/*
 * TVMFuncRegistry and TVMMutableFuncRegistry against func_registry.h (rfcs/001
 * with a two-byte count): the names blob byte by byte, lookup by name and by
 * index, missing names, more than 255 functions, and the mutable registry's
 * capacity, replacement and full cases.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/func_registry.h>

#include "crt_config.h"
#include "crt_test.h"

static int Func0(TVMValue* a, int* t, int n, TVMValue* r, int* rt, void* h) {
  (void)a, (void)t, (void)n, (void)r, (void)rt, (void)h;
  return 0;
}
static int Func1(TVMValue* a, int* t, int n, TVMValue* r, int* rt, void* h) {
  (void)a, (void)t, (void)n, (void)r, (void)rt, (void)h;
  return 1;
}
static int Func2(TVMValue* a, int* t, int n, TVMValue* r, int* rt, void* h) {
  (void)a, (void)t, (void)n, (void)r, (void)rt, (void)h;
  return 2;
}

/* What codegen emits: both arrays const, so they can live in flash. */
static const char kGeneratedNames[] =
    "\x02\x00"
    "Func0\0"
    "Func1\0";
static const TVMBackendPackedCFunc kGeneratedFuncs[] = {Func0, Func1};
static const TVMFuncRegistry kGeneratedRegistry = {kGeneratedNames, kGeneratedFuncs};

static void test_const_registry_blob_is_the_documented_layout(void) {
  /* N in two bytes (little-endian), "Func0\0", "Func1\0", a terminating '\0'. */
  static const uint8_t expected[] = {2,   0,   'F', 'u', 'n', 'c', '0', 0,
                                     'F', 'u', 'n', 'c', '1', 0,   0};
  size_t i;
  CRT_EXPECT_EQ_INT(sizeof(expected), sizeof(kGeneratedNames));
  for (i = 0; i < sizeof(expected); ++i) {
    CRT_EXPECT_EQ_INT(expected[i], (uint8_t)kGeneratedRegistry.names[i]);
  }
  CRT_EXPECT_EQ_INT(2, TVMFuncRegistry_GetNumFuncs(&kGeneratedRegistry));
}

static void test_lookup_by_name_gives_the_index_of_the_name(void) {
  tvm_function_index_t index = 99;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_Lookup(&kGeneratedRegistry, "Func0", &index));
  CRT_EXPECT_EQ_INT(0, index);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_Lookup(&kGeneratedRegistry, "Func1", &index));
  CRT_EXPECT_EQ_INT(1, index);
}

static void test_lookup_by_index_gives_the_function(void) {
  TVMBackendPackedCFunc f = NULL;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_GetByIndex(&kGeneratedRegistry, 1, &f));
  CRT_EXPECT(f == Func1);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_GetByIndex(&kGeneratedRegistry, 0, &f));
  CRT_EXPECT(f == Func0);
}

static void test_index_past_the_count_is_invalid(void) {
  TVMBackendPackedCFunc f = Func2;
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionIndexInvalid,
                    TVMFuncRegistry_GetByIndex(&kGeneratedRegistry, 2, &f));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionIndexInvalid,
                    TVMFuncRegistry_GetByIndex(&kGeneratedRegistry, 0xFFFF, &f));
  CRT_EXPECT(f == Func2); /* untouched */
}

static void test_missing_names_are_not_found(void) {
  static const char* const missing[] = {"", "Func", "Func00", "func0", "Func2", "Func0 ", "F"};
  size_t i;
  for (i = 0; i < sizeof(missing) / sizeof(missing[0]); ++i) {
    tvm_function_index_t index = 77;
    CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound,
                      TVMFuncRegistry_Lookup(&kGeneratedRegistry, missing[i], &index));
    CRT_EXPECT_EQ_INT(77, index);
  }
}

static void test_empty_registry_finds_nothing(void) {
  static const char names[] = "\x00\x00";
  static const TVMFuncRegistry empty = {names, NULL};
  tvm_function_index_t index;
  TVMBackendPackedCFunc f;
  CRT_EXPECT_EQ_INT(0, TVMFuncRegistry_GetNumFuncs(&empty));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound, TVMFuncRegistry_Lookup(&empty, "", &index));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionIndexInvalid, TVMFuncRegistry_GetByIndex(&empty, 0, &f));
}

/* A block aligned for the function table, with guard bytes after it. */
typedef union {
  TVMBackendPackedCFunc align;
  uint8_t bytes[512];
} RegistryBlock;

static void test_mutable_capacity_comes_from_the_average_name_length(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  const size_t per_function =
      sizeof(TVMBackendPackedCFunc) + TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES + 1;
  const size_t size = 3 + 3 * per_function; /* count bytes and final '\0' */
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Create(&reg, block.bytes, size));
  CRT_EXPECT_EQ_INT(3, reg.max_functions);
  CRT_EXPECT_EQ_INT(0, TVMFuncRegistry_GetNumFuncs(&reg.registry));
  /* The table starts the block; the names follow it. */
  CRT_EXPECT((const void*)reg.registry.funcs == (const void*)block.bytes);
  CRT_EXPECT((const void*)reg.registry.names ==
             (const void*)(block.bytes + 3 * sizeof(TVMBackendPackedCFunc)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Create(&reg, block.bytes, size - 1));
  CRT_EXPECT_EQ_INT(2, reg.max_functions);
}

static void test_mutable_create_refuses_a_block_too_small_for_one_function(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  const size_t one = 3 + sizeof(TVMBackendPackedCFunc) + TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES + 1;
  CRT_EXPECT_EQ_INT(kTvmErrorBufferTooSmall,
                    TVMMutableFuncRegistry_Create(&reg, block.bytes, one - 1));
  CRT_EXPECT_EQ_INT(kTvmErrorBufferTooSmall, TVMMutableFuncRegistry_Create(&reg, NULL, 512));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Create(&reg, block.bytes, one));
  CRT_EXPECT_EQ_INT(1, reg.max_functions);
}

static void test_mutable_blob_matches_the_const_layout_byte_by_byte(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  TVMBackendPackedCFunc f;
  size_t i;
  memset(block.bytes, 0xAA, sizeof(block.bytes));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMMutableFuncRegistry_Create(&reg, block.bytes, sizeof(block.bytes)));
  CRT_EXPECT_EQ_INT(0, (uint8_t)reg.registry.names[0]);
  CRT_EXPECT_EQ_INT(0, (uint8_t)reg.registry.names[1]);
  CRT_EXPECT_EQ_INT(0, (uint8_t)reg.registry.names[2]);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "Func0", Func0, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "Func1", Func1, 0));
  for (i = 0; i < sizeof(kGeneratedNames); ++i) {
    CRT_EXPECT_EQ_INT((uint8_t)kGeneratedNames[i], (uint8_t)reg.registry.names[i]);
  }
  /* Nothing written past the terminating '\0'. */
  CRT_EXPECT_EQ_INT(0xAA, (uint8_t)reg.registry.names[sizeof(kGeneratedNames)]);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_GetByIndex(&reg.registry, 1, &f));
  CRT_EXPECT(f == Func1);
}

static void test_mutable_set_replaces_only_when_asked(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  TVMBackendPackedCFunc f;
  tvm_function_index_t index;
  TVMMutableFuncRegistry_Create(&reg, block.bytes, sizeof(block.bytes));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "a", Func0, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "b", Func1, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionAlreadyDefined,
                    TVMMutableFuncRegistry_Set(&reg, "a", Func2, 0));
  TVMFuncRegistry_GetByIndex(&reg.registry, 0, &f);
  CRT_EXPECT(f == Func0);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "a", Func2, 1));
  CRT_EXPECT_EQ_INT(2, TVMFuncRegistry_GetNumFuncs(&reg.registry));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_Lookup(&reg.registry, "a", &index));
  CRT_EXPECT_EQ_INT(0, index);
  TVMFuncRegistry_GetByIndex(&reg.registry, 0, &f);
  CRT_EXPECT(f == Func2);
}

static void test_mutable_registry_reports_full_table(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  const size_t per_function =
      sizeof(TVMBackendPackedCFunc) + TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES + 1;
  const size_t size = 3 + 2 * per_function;
  memset(block.bytes, 0x5C, sizeof(block.bytes));
  TVMMutableFuncRegistry_Create(&reg, block.bytes, size);
  CRT_EXPECT_EQ_INT(2, reg.max_functions);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "x", Func0, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "y", Func1, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionRegistryFull, TVMMutableFuncRegistry_Set(&reg, "z", Func2, 0));
  CRT_EXPECT_EQ_INT(2, TVMFuncRegistry_GetNumFuncs(&reg.registry));
  /* Replacing an existing name still works when full. */
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "y", Func2, 1));
  CRT_EXPECT_EQ_INT(0x5C, block.bytes[size]);
}

static void test_mutable_registry_reports_full_names_area(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  char long_name[TVM_CRT_MAX_FUNCTION_NAME_BYTES];
  const size_t per_function =
      sizeof(TVMBackendPackedCFunc) + TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES + 1;
  const size_t size = 3 + 3 * per_function; /* count bytes and final '\0' */
  memset(block.bytes, 0x5C, sizeof(block.bytes));
  memset(long_name, 'n', sizeof(long_name) - 1);
  long_name[sizeof(long_name) - 1] = '\0';
  TVMMutableFuncRegistry_Create(&reg, block.bytes, size);
  /* 3 slots of 20-byte names = 63 name bytes; one 79-byte name cannot fit. */
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionRegistryFull,
                    TVMMutableFuncRegistry_Set(&reg, long_name, Func0, 0));
  CRT_EXPECT_EQ_INT(0, TVMFuncRegistry_GetNumFuncs(&reg.registry));
  long_name[40] = '\0';
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, long_name, Func0, 0));
  long_name[40] = 'm';
  long_name[41] = '\0';
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionRegistryFull,
                    TVMMutableFuncRegistry_Set(&reg, long_name, Func1, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, "short", Func1, 0));
  CRT_EXPECT_EQ_INT(0x5C, block.bytes[size]);
}

static void test_mutable_registry_rejects_bad_names(void) {
  RegistryBlock block;
  TVMMutableFuncRegistry reg;
  char too_long[TVM_CRT_MAX_FUNCTION_NAME_BYTES + 1];
  memset(too_long, 'q', sizeof(too_long) - 1);
  too_long[sizeof(too_long) - 1] = '\0';
  TVMMutableFuncRegistry_Create(&reg, block.bytes, sizeof(block.bytes));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameInvalid, TVMMutableFuncRegistry_Set(&reg, "", Func0, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameInvalid, TVMMutableFuncRegistry_Set(&reg, NULL, Func0, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameInvalid,
                    TVMMutableFuncRegistry_Set(&reg, too_long, Func0, 0));
  CRT_EXPECT_EQ_INT(0, TVMFuncRegistry_GetNumFuncs(&reg.registry));
}

/* "f000" ... : four characters and '\0' per name. */
#define MANY_FUNCTIONS 300
static void WriteName(char* out, char prefix, int i) {
  out[0] = prefix;
  out[1] = (char)('0' + i / 100);
  out[2] = (char)('0' + i / 10 % 10);
  out[3] = (char)('0' + i % 10);
  out[4] = '\0';
}

static void test_const_registry_counts_past_255_in_two_bytes(void) {
  static char names[2 + MANY_FUNCTIONS * 5 + 1];
  static TVMBackendPackedCFunc funcs[MANY_FUNCTIONS];
  TVMFuncRegistry reg;
  tvm_function_index_t index = 0;
  TVMBackendPackedCFunc f = NULL;
  int i;
  names[0] = (char)(MANY_FUNCTIONS & 0xFF); /* 300 = 0x012C, little-endian */
  names[1] = (char)(MANY_FUNCTIONS >> 8);
  for (i = 0; i < MANY_FUNCTIONS; ++i) {
    WriteName(names + 2 + i * 5, 'f', i);
    funcs[i] = i == MANY_FUNCTIONS - 1 ? Func2 : Func0;
  }
  names[sizeof(names) - 1] = '\0';
  reg.names = names;
  reg.funcs = funcs;
  CRT_EXPECT_EQ_INT(MANY_FUNCTIONS, TVMFuncRegistry_GetNumFuncs(&reg));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_Lookup(&reg, "f256", &index));
  CRT_EXPECT_EQ_INT(256, index);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_Lookup(&reg, "f299", &index));
  CRT_EXPECT_EQ_INT(299, index);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_GetByIndex(&reg, 299, &f));
  CRT_EXPECT(f == Func2);
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionIndexInvalid, TVMFuncRegistry_GetByIndex(&reg, 300, &f));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound, TVMFuncRegistry_Lookup(&reg, "f300", &index));
}

static void test_mutable_registry_holds_more_than_255(void) {
  static union {
    TVMBackendPackedCFunc align;
    uint8_t bytes[3 + MANY_FUNCTIONS * (sizeof(TVMBackendPackedCFunc) +
                                        TVM_CRT_AVERAGE_FUNCTION_NAME_BYTES + 1)];
  } block;
  TVMMutableFuncRegistry reg;
  tvm_function_index_t index = 0;
  char name[5];
  int i;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMMutableFuncRegistry_Create(&reg, block.bytes, sizeof(block.bytes)));
  CRT_EXPECT_EQ_INT(MANY_FUNCTIONS, reg.max_functions);
  for (i = 0; i < MANY_FUNCTIONS; ++i) {
    WriteName(name, 'm', i);
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMMutableFuncRegistry_Set(&reg, name, Func1, 0));
  }
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionRegistryFull,
                    TVMMutableFuncRegistry_Set(&reg, "extra", Func1, 0));
  CRT_EXPECT_EQ_INT(MANY_FUNCTIONS, TVMFuncRegistry_GetNumFuncs(&reg.registry));
  CRT_EXPECT_EQ_INT(0x2C, (uint8_t)reg.registry.names[0]);
  CRT_EXPECT_EQ_INT(0x01, (uint8_t)reg.registry.names[1]);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegistry_Lookup(&reg.registry, "m299", &index));
  CRT_EXPECT_EQ_INT(299, index);
}

int main(void) {
  CRT_RUN(test_const_registry_blob_is_the_documented_layout);
  CRT_RUN(test_lookup_by_name_gives_the_index_of_the_name);
  CRT_RUN(test_lookup_by_index_gives_the_function);
  CRT_RUN(test_index_past_the_count_is_invalid);
  CRT_RUN(test_missing_names_are_not_found);
  CRT_RUN(test_empty_registry_finds_nothing);
  CRT_RUN(test_mutable_capacity_comes_from_the_average_name_length);
  CRT_RUN(test_mutable_create_refuses_a_block_too_small_for_one_function);
  CRT_RUN(test_mutable_blob_matches_the_const_layout_byte_by_byte);
  CRT_RUN(test_mutable_set_replaces_only_when_asked);
  CRT_RUN(test_mutable_registry_reports_full_table);
  CRT_RUN(test_mutable_registry_reports_full_names_area);
  CRT_RUN(test_mutable_registry_rejects_bad_names);
  CRT_RUN(test_const_registry_counts_past_255_in_two_bytes);
  CRT_RUN(test_mutable_registry_holds_more_than_255);
  return crt_test_exit_code();
}
