/*
 * The embedded interface's calls (rfcs/002): TVMExecute, TVMSetWorkspaces,
 * TVMGetWorkspaceSize, TVMSetDevices. Static inline, so an AOT-only firmware
 * links nothing for them beyond what it calls.
 *
 * One departure from the RFC's sketch: TVMSetWorkspaces also takes the size of
 * each workspace. With it TVMExecute refuses a workspace smaller than the model
 * needs (kTvmErrorExecutorWorkspaceTooSmall) before any operator runs, instead
 * of letting the model write past the application's buffer.
 */
#ifndef TVM_RUNTIME_CRT_TVM_MICRO_RUNTIME_H_
#define TVM_RUNTIME_CRT_TVM_MICRO_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/tvm_micro_backend.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Bytes of workspace workspace_index the model needs (0 if it has none). */
static inline size_t TVMGetWorkspaceSize(const TVMModel* model, size_t workspace_index) {
  if (workspace_index >= model->num_workspaces) return 0;
  return model->workspace_size[workspace_index];
}

/*! \brief Give the context num_workspaces buffers and their sizes in bytes. */
static inline void TVMSetWorkspaces(TVMContext* context, void** workspaces,
                                    const size_t* workspace_bytes, size_t num_workspaces) {
  context->workspace = workspaces;
  context->workspace_bytes = workspace_bytes;
  context->num_workspaces = num_workspaces;
}

/*! \brief Attach the generated devices struct (rfcs/000). */
static inline void TVMSetDevices(TVMContext* context, void* devices) {
  context->devices = devices;
}

/*!
 * \brief Run the model. Checks the workspaces first; otherwise returns what the
 * generated entry returns (0, or the failing operator's error code).
 * context may be NULL for a model whose workspaces are pinned in the generated code.
 */
static inline int32_t TVMExecute(const TVMModel* model, void** inputs, void** outputs,
                                 TVMContext* context) {
  uint32_t i;
  if (model == NULL || model->entrypoint == NULL) return kTvmErrorInvalidArgument;
  for (i = 0; i < model->num_workspaces; ++i) {
    if (model->workspace_size[i] == 0) continue;
    if (context == NULL || i >= context->num_workspaces || context->workspace == NULL ||
        context->workspace[i] == NULL) {
      return kTvmErrorExecutorWorkspaceMissing;
    }
    if (context->workspace_bytes == NULL ||
        context->workspace_bytes[i] < model->workspace_size[i]) {
      return kTvmErrorExecutorWorkspaceTooSmall;
    }
  }
  return model->entrypoint(inputs, outputs, context);
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_RUNTIME_CRT_TVM_MICRO_RUNTIME_H_ */
