/*
 * The debug executor's one hook. Generated code compiled for debugging
 * (loupec debug, `loupec run --dump-tensors` on a board) calls
 * TVMDebugTensor after each operator for every tensor the operator wrote,
 * at once, before the memory plan lets a later operator reuse its bytes, so
 * the board needs no second copy of its workspace. The RPC server sends them
 * to the host as TENSOR messages while RUN is handled (session.h); outside
 * a RUN the call does nothing.
 */
#ifndef TVM_RUNTIME_CRT_DEBUG_TENSORS_H_
#define TVM_RUNTIME_CRT_DEBUG_TENSORS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief Operator operator_index wrote size bytes of tensor tensor_index at data. */
void TVMDebugTensor(uint32_t operator_index, uint32_t tensor_index, const void* data,
                    uint32_t size);

#ifdef __cplusplus
}
#endif

#endif /* TVM_RUNTIME_CRT_DEBUG_TENSORS_H_ */
