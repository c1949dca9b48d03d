/*
 * The board's RPC server (docs/session_rpc.md): a session (session.h) whose
 * requests call functions of the global registry, manage device memory, and
 * drive the one model the firmware was built with, described by a
 * TVMModelDescriptor. Every request is untrusted input: each length, offset,
 * count, handle and range is checked before it is used.
 *
 * A firmware's whole serial loop:
 *   static TVMRpcServer server;   (static: it holds the receive buffer)
 *   TVMInitializeRuntime();  TVMPlatformMemoryInit(arena, sizeof(arena));
 *   TVMRpcServerInit(&server, "my_board", loupe_model_descriptor(), uart_write, NULL);
 *   for (;;) if (uart_poll(&byte)) TVMRpcServerFeed(&server, byte);
 * Responses go straight to the writer, model outputs included, so no second
 * buffer is needed. No malloc: device memory comes from
 * TVMPlatformMemoryAllocate, the tables are sized by crt_config.h.
 */
#ifndef TVM_RUNTIME_CRT_RPC_SERVER_H_
#define TVM_RUNTIME_CRT_RPC_SERVER_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/dl_tensor.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/framing.h>
#include <tvm/runtime/crt/session.h>

#include "crt_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/*! \brief RPC opcodes: the first byte of a request body and of its response. */
typedef enum {
  kTvmRpcGetGlobalFunc = 0x01,
  kTvmRpcCallFunc = 0x02,
  kTvmRpcAlloc = 0x03,
  kTvmRpcFree = 0x04,
  kTvmRpcCopyToDevice = 0x05,
  kTvmRpcCopyFromDevice = 0x06,
  kTvmRpcModelInfo = 0x10,
  kTvmRpcSetInput = 0x11,
  kTvmRpcRun = 0x12,
  kTvmRpcGetOutput = 0x13,
  kTvmRpcGetProfile = 0x14,
  kTvmRpcResetState = 0x15
} TVMRpcOpcode;

/*! Bytes of a response before its results: opcode u8, status i32. */
#define TVM_RPC_RESPONSE_HEADER_BYTES 5
/*! GET_OUTPUT and COPY_FROM_DEVICE return at most max request minus this. */
#define TVM_RPC_READ_MARGIN_BYTES 16

/*!
 * \brief The model compiled into the firmware, as the RPC server sees it.
 * The project generator writes one (model_descriptor.c); all of it lives in
 * flash except the buffers. The server only reads it.
 */
typedef struct {
  const char* name;       /*!< the model's name (tvmgen_<name>_run); ASCII */
  uint8_t num_inputs;     /*!< entries of inputs and input_bytes */
  uint8_t num_outputs;    /*!< entries of outputs and output_bytes */
  uint8_t* const* inputs; /*!< the model's input buffers, written by SET_INPUT */
  const uint32_t* input_bytes;
  uint8_t* const* outputs; /*!< its output buffers, read by GET_OUTPUT */
  const uint32_t* output_bytes;
  uint32_t num_operators;    /*!< operators the profiler may record, for MODEL_INFO */
  uint32_t workspace_bytes;  /*!< for MODEL_INFO only */
  uint32_t state_bytes;      /*!< for MODEL_INFO only; 0: stateless */
  int32_t (*run)(void);      /*!< runs the model once on the buffers above; 0 = ok */
  void (*reset_state)(void); /*!< clears the model's state; NULL when it has none */
} TVMModelDescriptor;

/*! \brief One live block of device memory handed out by ALLOC. */
typedef struct {
  uint8_t* data;       /*!< NULL: the entry is free */
  uint32_t bytes;      /*!< its size, for the range checks */
  uint16_t generation; /*!< bumped on FREE, so a stale handle never matches */
} TVMRpcAllocation;

/*! \brief Server state: static RAM, fields private (rpc_server.c). */
typedef struct TVMRpcServer {
  TVMSession session;
  const TVMModelDescriptor* model;
  TVMRpcAllocation allocations[TVM_CRT_RPC_MAX_ALLOCATIONS];
  /* CALL_FUNC's arguments, built here rather than on the stack. */
  TVMValue arg_values[TVM_CRT_MAX_ARGS];
  int arg_type_codes[TVM_CRT_MAX_ARGS];
  DLTensor tensors[TVM_CRT_MAX_ARGS];
  int64_t shapes[TVM_CRT_MAX_ARGS][TVM_CRT_MAX_NDIM];
} TVMRpcServer;

/*!
 * \brief Set up the server and send BOOT. model may be NULL (no model: the
 * model opcodes fail with kTvmErrorRpcNoModel). board_name goes into BOOT and
 * STARTED; the tick rate announced is TVMPlatformProfilerTicksPerSecond().
 * The runtime (TVMInitializeRuntime) and TVMPlatformMemoryAllocate must be
 * ready before requests arrive. Returns the writer's error for BOOT.
 */
tvm_crt_error_t TVMRpcServerInit(TVMRpcServer* server, const char* board_name,
                                 const TVMModelDescriptor* model, TVMFrameByteWriter write,
                                 void* write_context);

/*! \brief Feed one byte received from the host; may handle a request. */
tvm_crt_error_t TVMRpcServerFeed(TVMRpcServer* server, uint8_t byte);

/*! \brief Send a NUL-terminated text to the host as a LOG message. */
tvm_crt_error_t TVMRpcServerLog(TVMRpcServer* server, const char* text);

#ifdef __cplusplus
}
#endif

#endif /* TVM_RUNTIME_CRT_RPC_SERVER_H_ */
