/*
 * The runtime's handle API (rfcs/001): TVMInitializeRuntime, the global
 * namespace, modules, runtime.SystemLib, and TVMFuncCall reaching the right
 * function with the right resource_handle (the module for module functions,
 * NULL for globals); errors come back as codes with a TVMGetLastError message.
 */
#include <string.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/internal/function_handle.h>
#include <tvm/runtime/crt/module.h>

#include "crt_config.h"
#include "crt_test.h"

/* What each call saw, so tests can tell the functions apart. */
static struct {
  int calls;
  int which;
  void* resource_handle;
  int num_args;
} seen;

static int Record(int which, TVMValue* args, int num_args, TVMValue* ret, int* ret_tcode,
                  void* resource_handle) {
  ++seen.calls;
  seen.which = which;
  seen.resource_handle = resource_handle;
  seen.num_args = num_args;
  ret->v_int64 = which * 100 + (num_args > 0 ? args[0].v_int64 : 0);
  *ret_tcode = kTVMArgInt;
  return 0;
}

#define DEFINE_RECORDER(n)                                                             \
  static int Recorder##n(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, \
                         int* ret_tcode, void* resource_handle) {                      \
    (void)type_codes;                                                                  \
    return Record(n, args, num_args, ret, ret_tcode, resource_handle);                 \
  }
DEFINE_RECORDER(1)
DEFINE_RECORDER(2)
DEFINE_RECORDER(3)
DEFINE_RECORDER(4)

static int Failing(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, int* ret_tcode,
                   void* resource_handle) {
  (void)args, (void)type_codes, (void)num_args, (void)ret, (void)ret_tcode, (void)resource_handle;
  TVMAPISetLastError("Failing: on purpose");
  return -1;
}

/* The system lib, as codegen would emit it: a const registry and module. */
static const char kSystemLibNames[] =
    "\x02\x00"
    "fused_add\0"
    "fused_mul\0";
static const TVMBackendPackedCFunc kSystemLibFuncs[] = {Recorder3, Recorder4};
static const TVMFuncRegistry kSystemLibRegistry = {kSystemLibNames, kSystemLibFuncs};
static const TVMModule kSystemLib = {&kSystemLibRegistry};
static int entry_point_calls;

const TVMModule* TVMSystemLibEntryPoint(void) {
  ++entry_point_calls;
  return &kSystemLib;
}

/* A second module, registered directly. */
static const char kOtherNames[] =
    "\x01\x00"
    "fused_add\0";
static const TVMBackendPackedCFunc kOtherFuncs[] = {Recorder1};
static const TVMFuncRegistry kOtherRegistry = {kOtherNames, kOtherFuncs};
static const TVMModule kOther = {&kOtherRegistry};

static void Reset(void) {
  memset(&seen, 0, sizeof(seen));
  entry_point_calls = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMInitializeRuntime());
}

static TVMModuleHandle GetSystemLib(void) {
  TVMFunctionHandle f = NULL;
  TVMValue ret;
  int ret_tcode = -1;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncGetGlobal("runtime.SystemLib", &f));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncCall(f, NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(kTVMModuleHandle, ret_tcode);
  return ret.v_handle;
}

static void test_calls_before_initialisation_fail(void) {
  /* Runs first: nothing has initialised the runtime yet. */
  TVMFunctionHandle f;
  CRT_EXPECT_EQ_INT(kTvmErrorRuntimeNotInitialized, TVMFuncGetGlobal("runtime.SystemLib", &f));
  CRT_EXPECT_EQ_INT(kTvmErrorRuntimeNotInitialized, TVMFuncRegisterGlobal("g", Recorder1, 0));
  CRT_EXPECT(strstr(TVMGetLastError(), "not initialized") != NULL);
}

static void test_global_function_is_called_with_null_resource_handle(void) {
  TVMFunctionHandle f = NULL;
  TVMValue arg;
  TVMValue ret;
  int tcode = kTVMArgInt;
  int ret_tcode = -1;
  Reset();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegisterGlobal("my.global", Recorder2, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncGetGlobal("my.global", &f));
  seen.resource_handle = &seen; /* must be overwritten with NULL */
  arg.v_int64 = 7;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncCall(f, &arg, &tcode, 1, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(1, seen.calls);
  CRT_EXPECT_EQ_INT(2, seen.which);
  CRT_EXPECT(seen.resource_handle == NULL);
  CRT_EXPECT_EQ_INT(1, seen.num_args);
  CRT_EXPECT_EQ_INT(207, ret.v_int64);
  CRT_EXPECT_EQ_INT(kTVMArgInt, ret_tcode);
}

static void test_system_lib_is_created_once_from_the_entry_point(void) {
  TVMModuleHandle first;
  TVMModuleHandle second;
  Reset();
  first = GetSystemLib();
  second = GetSystemLib();
  CRT_EXPECT(first != NULL);
  CRT_EXPECT(first == second);
  CRT_EXPECT_EQ_INT(1, entry_point_calls);
}

static void test_module_function_is_called_with_its_module(void) {
  TVMModuleHandle lib;
  TVMFunctionHandle add = NULL;
  TVMFunctionHandle mul = NULL;
  TVMValue ret;
  int ret_tcode;
  Reset();
  lib = GetSystemLib();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMModGetFunction(lib, "fused_mul", 0, &mul));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMModGetFunction(lib, "fused_add", 0, &add));
  CRT_EXPECT(add != mul);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncCall(mul, NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(4, seen.which);
  CRT_EXPECT(seen.resource_handle == (const void*)&kSystemLib);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncCall(add, NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(3, seen.which);
  CRT_EXPECT(seen.resource_handle == (const void*)&kSystemLib);
  CRT_EXPECT_EQ_INT(300, ret.v_int64);
}

static void test_same_name_in_two_modules_resolves_per_module(void) {
  TVMModuleHandle lib;
  TVMModuleHandle other = NULL;
  TVMFunctionHandle lib_add;
  TVMFunctionHandle other_add;
  TVMValue ret;
  int ret_tcode;
  Reset();
  lib = GetSystemLib();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, _TVMModCreateFromCModule(&kOther, &other));
  CRT_EXPECT(other != lib);
  TVMModGetFunction(lib, "fused_add", 0, &lib_add);
  TVMModGetFunction(other, "fused_add", 0, &other_add);
  CRT_EXPECT(lib_add != other_add);
  TVMFuncCall(other_add, NULL, NULL, 0, &ret, &ret_tcode);
  CRT_EXPECT_EQ_INT(1, seen.which);
  CRT_EXPECT(seen.resource_handle == (const void*)&kOther);
  TVMFuncCall(lib_add, NULL, NULL, 0, &ret, &ret_tcode);
  CRT_EXPECT_EQ_INT(3, seen.which);
  CRT_EXPECT(seen.resource_handle == (const void*)&kSystemLib);
}

static void test_module_table_reports_full(void) {
  TVMModuleHandle h;
  int i;
  Reset();
  for (i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; ++i) {
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, _TVMModCreateFromCModule(&kOther, &h));
  }
  CRT_EXPECT_EQ_INT(kTvmErrorModuleTableFull, _TVMModCreateFromCModule(&kOther, &h));
  CRT_EXPECT(strstr(TVMGetLastError(), "table full") != NULL);
}

static void test_missing_names_give_not_found(void) {
  TVMFunctionHandle f = NULL;
  Reset();
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound, TVMFuncGetGlobal("no.such.function", &f));
  CRT_EXPECT(f == NULL);
  CRT_EXPECT(strstr(TVMGetLastError(), "no such global") != NULL);
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound, TVMFuncGetGlobal("runtime.SystemLi", &f));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound,
                    TVMModGetFunction(GetSystemLib(), "fused_sub", 0, &f));
  CRT_EXPECT(f == NULL);
}

static void test_invalid_handles_are_rejected(void) {
  TVMFunctionHandle f = NULL;
  TVMValue ret;
  int ret_tcode;
  Reset();
  CRT_EXPECT_EQ_INT(kTvmErrorModuleHandleInvalid, TVMModGetFunction(NULL, "fused_add", 0, &f));
  /* A well-formed handle of a module that is not registered. */
  CRT_EXPECT_EQ_INT(kTvmErrorModuleHandleInvalid,
                    TVMModGetFunction(TVMEncodeModuleHandle(1), "fused_add", 0, &f));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionHandleInvalid,
                    TVMFuncCall(NULL, NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionHandleInvalid,
                    TVMFuncCall(TVMEncodeGlobalFunctionHandle(1), NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionHandleInvalid, TVMFuncCall(TVMEncodeModuleFunctionHandle(0, 0),
                                                                NULL, NULL, 0, &ret, &ret_tcode));
  (void)GetSystemLib();
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionHandleInvalid, TVMFuncCall(TVMEncodeModuleFunctionHandle(0, 2),
                                                                NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(0, seen.calls);
}

static void test_too_many_arguments_are_refused(void) {
  TVMFunctionHandle f;
  TVMValue args[TVM_CRT_MAX_ARGS + 1];
  int tcodes[TVM_CRT_MAX_ARGS + 1];
  TVMValue ret;
  int ret_tcode;
  Reset();
  memset(args, 0, sizeof(args));
  memset(tcodes, 0, sizeof(tcodes));
  TVMFuncRegisterGlobal("g", Recorder1, 0);
  TVMFuncGetGlobal("g", &f);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMFuncCall(f, args, tcodes, TVM_CRT_MAX_ARGS, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionCallNumArgs,
                    TVMFuncCall(f, args, tcodes, TVM_CRT_MAX_ARGS + 1, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionCallNumArgs,
                    TVMFuncCall(f, args, tcodes, -1, &ret, &ret_tcode));
  CRT_EXPECT_EQ_INT(1, seen.calls);
}

static void test_a_failing_function_keeps_its_message(void) {
  TVMFunctionHandle f;
  TVMValue ret;
  int ret_tcode;
  Reset();
  TVMFuncRegisterGlobal("fails", Failing, 0);
  TVMFuncGetGlobal("fails", &f);
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionCallFailed, TVMFuncCall(f, NULL, NULL, 0, &ret, &ret_tcode));
  CRT_EXPECT(strcmp(TVMGetLastError(), "Failing: on purpose") == 0);
}

static void test_register_global_replaces_only_with_override(void) {
  TVMFunctionHandle f;
  TVMValue ret;
  int ret_tcode;
  Reset();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegisterGlobal("g", Recorder1, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionAlreadyDefined, TVMFuncRegisterGlobal("g", Recorder2, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegisterGlobal("g", Recorder2, 1));
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMFuncRegisterGlobal("h", NULL, 0));
  /* runtime.SystemLib is a name like any other: replacing it needs override. */
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionAlreadyDefined,
                    TVMFuncRegisterGlobal("runtime.SystemLib", Recorder3, 0));
  TVMFuncGetGlobal("g", &f);
  TVMFuncCall(f, NULL, NULL, 0, &ret, &ret_tcode);
  CRT_EXPECT_EQ_INT(2, seen.which);
}

static void test_global_registry_reports_full(void) {
  char name[4] = {'f', 'A', 'A', '\0'};
  int registered = 0;
  int err = kTvmErrorNoError;
  Reset();
  while (err == kTvmErrorNoError && registered < 1000) {
    name[1] = (char)('A' + registered / 26);
    name[2] = (char)('A' + registered % 26);
    err = TVMFuncRegisterGlobal(name, Recorder1, 0);
    if (err == kTvmErrorNoError) ++registered;
  }
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionRegistryFull, err);
  CRT_EXPECT(registered > 0);
  /* Everything registered before it filled up is still there. */
  {
    TVMFunctionHandle f;
    name[1] = 'A';
    name[2] = 'A';
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncGetGlobal(name, &f));
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncGetGlobal("runtime.SystemLib", &f));
  }
}

static void test_reinitialising_forgets_globals_and_modules(void) {
  TVMFunctionHandle f;
  TVMModuleHandle h;
  Reset();
  TVMFuncRegisterGlobal("g", Recorder1, 0);
  _TVMModCreateFromCModule(&kOther, &h);
  Reset();
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound, TVMFuncGetGlobal("g", &f));
  CRT_EXPECT_EQ_INT(kTvmErrorModuleHandleInvalid, TVMModGetFunction(h, "fused_add", 0, &f));
}

int main(void) {
  CRT_RUN(test_calls_before_initialisation_fail);
  CRT_RUN(test_global_function_is_called_with_null_resource_handle);
  CRT_RUN(test_system_lib_is_created_once_from_the_entry_point);
  CRT_RUN(test_module_function_is_called_with_its_module);
  CRT_RUN(test_same_name_in_two_modules_resolves_per_module);
  CRT_RUN(test_module_table_reports_full);
  CRT_RUN(test_missing_names_give_not_found);
  CRT_RUN(test_invalid_handles_are_rejected);
  CRT_RUN(test_too_many_arguments_are_refused);
  CRT_RUN(test_a_failing_function_keeps_its_message);
  CRT_RUN(test_register_global_replaces_only_with_override);
  CRT_RUN(test_global_registry_reports_full);
  CRT_RUN(test_reinitialising_forgets_globals_and_modules);
  return crt_test_exit_code();
}
