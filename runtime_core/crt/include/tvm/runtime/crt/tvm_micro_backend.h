/*
 * The embedded interface's data (rfcs/002): the TVMModel descriptor that code
 * generation emits for each model (const, so it can live in flash) and the
 * TVMContext the application fills in (workspaces, devices).
 *
 * Applications use tvm_micro_runtime.h rather than these fields directly.
 */
#ifndef TVM_RUNTIME_CRT_TVM_MICRO_BACKEND_H_
#define TVM_RUNTIME_CRT_TVM_MICRO_BACKEND_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct TVMContext;

/*! \brief The generated AOT entry; returns 0 or an error code. */
typedef int32_t (*TVMMicroEntryPoint)(void** inputs, void** outputs, struct TVMContext* context);

/*! \brief Model descriptor, generated. */
typedef struct TVMModel {
  uint32_t num_input_tensors;   /*!< entries expected in inputs */
  uint32_t num_output_tensors;  /*!< entries expected in outputs */
  uint32_t num_workspaces;      /*!< workspaces the application must provide (0: pinned in the
                                     generated code) */
  const size_t* workspace_size; /*!< bytes of each of those workspaces */
  TVMMicroEntryPoint entrypoint;
} TVMModel;

/*! \brief Where and with what a model runs; owned by the application. */
typedef struct TVMContext {
  void** workspace;              /*!< one pointer per workspace */
  const size_t* workspace_bytes; /*!< capacity of each, so too-small ones are refused */
  size_t num_workspaces;
  void* devices; /*!< the generated struct tvmgen_<name>_devices, or NULL */
} TVMContext;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_TVM_MICRO_BACKEND_H_ */
