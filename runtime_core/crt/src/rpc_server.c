/*
 * The board's RPC server (rpc_server.h, docs/session_rpc.md). Each opcode is
 * one function that reads its arguments with a bounds-checked reader and
 * answers with exactly one response. Lengths are compared by subtraction
 * (offset <= size, then length <= size - offset) so no sum can overflow.
 */
#include <loupe/little_endian.h>
#include <tvm/runtime/crt/debug_tensors.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>
#include <tvm/runtime/crt/rpc_server.h>

#if TVM_CRT_RPC_MAX_ALLOCATIONS < 1 || TVM_CRT_RPC_MAX_ALLOCATIONS > 65535
#error "TVM_CRT_RPC_MAX_ALLOCATIONS must be 1..65535 (a handle holds a 16-bit slot)"
#endif

/* CALL_FUNC encodes DLTensors with DLPack's kDLCPU device. */
#define DEVICE_TYPE_CPU 1
/* The longest read result: what the host can take in one response. */
#define MAX_READ_BYTES (TVM_CRT_RPC_RECEIVE_BUFFER_BYTES - TVM_RPC_READ_MARGIN_BYTES)
/* GET_PROFILE: calls u32 + ticks u64 per operator, after operators and returned. */
#define PROFILE_ENTRY_BYTES 12
#define MAX_PROFILE_ENTRIES ((MAX_READ_BYTES - 8) / PROFILE_ENTRY_BYTES)

/* ---- Reading a request: every read checks what is left. ---- */

typedef struct {
  const uint8_t* data;
  size_t size;
  size_t position;
  int failed; /* a read went past the end */
} Reader;

static size_t Remaining(const Reader* reader) {
  return reader->size - reader->position;
}

static uint64_t ReadLittleEndian(Reader* reader, size_t bytes) {
  uint64_t value = 0;
  size_t i;
  if (reader->failed || Remaining(reader) < bytes) {
    reader->failed = 1;
    return 0;
  }
  for (i = 0; i < bytes; ++i) {
    value |= (uint64_t)reader->data[reader->position + i] << (8 * i);
  }
  reader->position += bytes;
  return value;
}

static uint8_t ReadU8(Reader* reader) {
  return (uint8_t)ReadLittleEndian(reader, 1);
}

static uint16_t ReadU16(Reader* reader) {
  return (uint16_t)ReadLittleEndian(reader, 2);
}

static uint32_t ReadU32(Reader* reader) {
  return (uint32_t)ReadLittleEndian(reader, 4);
}

static uint64_t ReadU64(Reader* reader) {
  return ReadLittleEndian(reader, 8);
}

/* Two's complement without relying on implementation-defined conversion. */
static int64_t ToInt64(uint64_t bits) {
  if (bits <= (uint64_t)INT64_MAX) return (int64_t)bits;
  return -(int64_t)(~bits) - 1;
}

/* A fixed-size request: all its arguments read and nothing left over. */
static int ReadExactly(const Reader* reader) {
  return !reader->failed && Remaining(reader) == 0;
}

/* ---- Writing a response. ---- */

static void PutU64(uint8_t* out, uint64_t value) {
  size_t i;
  for (i = 0; i < 8; ++i) out[i] = (uint8_t)(value >> (8 * i));
}

/* Opcode and status, then results_bytes of results that the caller writes. */
static void BeginResponse(TVMRpcServer* server, uint8_t opcode, int32_t status,
                          size_t results_bytes) {
  uint8_t header[TVM_RPC_RESPONSE_HEADER_BYTES];
  header[0] = opcode;
  loupe_put_le_u32(header + 1, (uint32_t)status);
  TVMSession_BeginResponse(&server->session, sizeof(header) + results_bytes);
  TVMSession_WriteResponse(&server->session, header, sizeof(header));
}

static void Write(TVMRpcServer* server, const uint8_t* data, size_t size) {
  TVMSession_WriteResponse(&server->session, data, size);
}

static void EndResponse(TVMRpcServer* server) {
  TVMSession_EndResponse(&server->session);
}

/* A response without results: an error, or success of an opcode that has none. */
static void RespondStatus(TVMRpcServer* server, uint8_t opcode, int32_t status) {
  BeginResponse(server, opcode, status, 0);
  EndResponse(server);
}

static void RespondU64(TVMRpcServer* server, uint8_t opcode, uint64_t value) {
  uint8_t results[8];
  PutU64(results, value);
  BeginResponse(server, opcode, kTvmErrorNoError, sizeof(results));
  Write(server, results, sizeof(results));
  EndResponse(server);
}

/* ---- Device memory: a handle is generation << 16 | (slot + 1). ---- */

static TVMRpcAllocation* FindAllocation(TVMRpcServer* server, uint64_t handle) {
  uint64_t slot = handle & 0xFFFFu;
  TVMRpcAllocation* allocation;
  if ((handle >> 32) != 0 || slot == 0 || slot > TVM_CRT_RPC_MAX_ALLOCATIONS) return NULL;
  allocation = &server->allocations[slot - 1];
  if (allocation->data == NULL || allocation->generation != (uint16_t)(handle >> 16)) return NULL;
  return allocation;
}

static uint64_t HandleOf(const TVMRpcServer* server, const TVMRpcAllocation* allocation) {
  uint64_t slot = (uint64_t)(allocation - server->allocations) + 1;
  return ((uint64_t)allocation->generation << 16) | slot;
}

/* [offset, offset + length) inside size bytes, without computing the sum. */
static int RangeFits(uint32_t offset, size_t length, uint32_t size) {
  return offset <= size && length <= (size_t)(size - offset);
}

static void CopyBytes(uint8_t* to, const uint8_t* from, size_t size) {
  size_t i;
  for (i = 0; i < size; ++i) to[i] = from[i];
}

/* Gives the block back; the entry stays if the allocator refuses. */
static tvm_crt_error_t ReleaseAllocation(TVMRpcAllocation* allocation) {
  tvm_crt_error_t err = TVMPlatformMemoryFree(allocation->data);
  if (err == kTvmErrorNoError) {
    allocation->data = NULL;
    allocation->bytes = 0;
    ++allocation->generation;
  }
  return err;
}

static void Alloc(TVMRpcServer* server, Reader* reader) {
  uint32_t bytes = ReadU32(reader);
  size_t i;
  void* data = NULL;
  tvm_crt_error_t err;
  TVMRpcAllocation* allocation = NULL;
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcAlloc, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (bytes == 0) {
    RespondStatus(server, kTvmRpcAlloc, kTvmErrorInvalidArgument);
    return;
  }
  for (i = 0; i < TVM_CRT_RPC_MAX_ALLOCATIONS && allocation == NULL; ++i) {
    if (server->allocations[i].data == NULL) allocation = &server->allocations[i];
  }
  if (allocation == NULL) {
    RespondStatus(server, kTvmRpcAlloc, kTvmErrorPlatformNoMemory);
    return;
  }
  err = TVMPlatformMemoryAllocate((size_t)bytes, &data);
  if (err != kTvmErrorNoError || data == NULL) {
    RespondStatus(server, kTvmRpcAlloc, err != kTvmErrorNoError ? err : kTvmErrorPlatformNoMemory);
    return;
  }
  allocation->data = (uint8_t*)data;
  allocation->bytes = bytes;
  RespondU64(server, kTvmRpcAlloc, HandleOf(server, allocation));
}

static void Free(TVMRpcServer* server, Reader* reader) {
  uint64_t handle = ReadU64(reader);
  TVMRpcAllocation* allocation;
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcFree, kTvmErrorRpcMalformedRequest);
    return;
  }
  allocation = FindAllocation(server, handle);
  if (allocation == NULL) {
    RespondStatus(server, kTvmRpcFree, kTvmErrorInvalidArgument);
    return;
  }
  RespondStatus(server, kTvmRpcFree, ReleaseAllocation(allocation));
}

static void CopyToDevice(TVMRpcServer* server, Reader* reader) {
  uint64_t handle = ReadU64(reader);
  uint32_t offset = ReadU32(reader);
  TVMRpcAllocation* allocation;
  size_t length;
  if (reader->failed) {
    RespondStatus(server, kTvmRpcCopyToDevice, kTvmErrorRpcMalformedRequest);
    return;
  }
  length = Remaining(reader);
  allocation = FindAllocation(server, handle);
  if (allocation == NULL || !RangeFits(offset, length, allocation->bytes)) {
    RespondStatus(server, kTvmRpcCopyToDevice, kTvmErrorInvalidArgument);
    return;
  }
  CopyBytes(allocation->data + offset, reader->data + reader->position, length);
  RespondStatus(server, kTvmRpcCopyToDevice, kTvmErrorNoError);
}

/* GET_OUTPUT and COPY_FROM_DEVICE: the whole range must fit, at most
 * MAX_READ_BYTES of it come back, streamed from where they are. */
static void RespondRead(TVMRpcServer* server, uint8_t opcode, const uint8_t* data, uint32_t size,
                        uint32_t offset, uint32_t length) {
  if (!RangeFits(offset, length, size)) {
    RespondStatus(server, opcode, kTvmErrorInvalidArgument);
    return;
  }
  if (length > MAX_READ_BYTES) length = MAX_READ_BYTES;
  BeginResponse(server, opcode, kTvmErrorNoError, length);
  Write(server, data + offset, length);
  EndResponse(server);
}

static void CopyFromDevice(TVMRpcServer* server, Reader* reader) {
  uint64_t handle = ReadU64(reader);
  uint32_t offset = ReadU32(reader);
  uint32_t length = ReadU32(reader);
  TVMRpcAllocation* allocation;
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcCopyFromDevice, kTvmErrorRpcMalformedRequest);
    return;
  }
  allocation = FindAllocation(server, handle);
  if (allocation == NULL) {
    RespondStatus(server, kTvmRpcCopyFromDevice, kTvmErrorInvalidArgument);
    return;
  }
  RespondRead(server, kTvmRpcCopyFromDevice, allocation->data, allocation->bytes, offset, length);
}

/* ---- Functions. ---- */

static void GetGlobalFunc(TVMRpcServer* server, Reader* reader) {
  char name[TVM_CRT_MAX_FUNCTION_NAME_BYTES];
  size_t length = Remaining(reader);
  size_t i;
  TVMFunctionHandle handle = NULL;
  int err;
  if (length == 0 || length >= sizeof(name)) {
    RespondStatus(server, kTvmRpcGetGlobalFunc, kTvmErrorFunctionNameInvalid);
    return;
  }
  for (i = 0; i < length; ++i) {
    name[i] = (char)reader->data[reader->position + i];
    if (name[i] == '\0') {
      RespondStatus(server, kTvmRpcGetGlobalFunc, kTvmErrorFunctionNameInvalid);
      return;
    }
  }
  name[length] = '\0';
  err = TVMFuncGetGlobal(name, &handle);
  if (err != kTvmErrorNoError) {
    RespondStatus(server, kTvmRpcGetGlobalFunc, err);
    return;
  }
  RespondU64(server, kTvmRpcGetGlobalFunc, (uint64_t)(uintptr_t)handle);
}

/* A u64 that must be a pointer of this core: refused if it does not fit. */
static int ToPointer(uint64_t bits, void** out) {
  uintptr_t pointer = (uintptr_t)bits;
  if ((uint64_t)pointer != bits) return 0;
  *out = (void*)pointer;
  return 1;
}

/* One DLTensor argument: it must lie inside a live allocation. */
static tvm_crt_error_t ReadTensor(TVMRpcServer* server, Reader* reader, size_t index) {
  DLTensor* tensor = &server->tensors[index];
  int64_t* shape = server->shapes[index];
  uint64_t handle = ReadU64(reader);
  uint8_t ndim = ReadU8(reader);
  uint8_t code = ReadU8(reader);
  uint8_t bits = ReadU8(reader);
  uint16_t lanes = ReadU16(reader);
  TVMRpcAllocation* allocation;
  uint64_t element_bits = (uint64_t)bits * lanes;
  uint64_t max_elements;
  uint64_t elements = 1;
  size_t i;
  if (reader->failed) return kTvmErrorRpcMalformedRequest;
  if (ndim > TVM_CRT_MAX_NDIM) return kTvmErrorInvalidArgument;
  for (i = 0; i < ndim; ++i) shape[i] = ToInt64(ReadU64(reader));
  if (reader->failed) return kTvmErrorRpcMalformedRequest;
  allocation = FindAllocation(server, handle);
  if (allocation == NULL || element_bits == 0) return kTvmErrorInvalidArgument;
  /* elements * element_bits <= bytes * 8, checked one dimension at a time. */
  max_elements = ((uint64_t)allocation->bytes * 8u) / element_bits;
  for (i = 0; i < ndim; ++i) {
    if (shape[i] < 0) return kTvmErrorInvalidArgument;
    if (shape[i] == 0) {
      elements = 0;
    } else if (elements > max_elements / (uint64_t)shape[i]) {
      return kTvmErrorInvalidArgument;
    } else {
      elements *= (uint64_t)shape[i];
    }
  }
  tensor->data = allocation->data;
  tensor->device.device_type = DEVICE_TYPE_CPU;
  tensor->device.device_id = 0;
  tensor->ndim = ndim;
  tensor->dtype.code = code;
  tensor->dtype.bits = bits;
  tensor->dtype.lanes = lanes;
  tensor->shape = shape;
  tensor->strides = NULL;
  tensor->byte_offset = 0;
  server->arg_values[index].v_handle = tensor;
  return kTvmErrorNoError;
}

static tvm_crt_error_t ReadArgument(TVMRpcServer* server, Reader* reader, size_t index) {
  uint8_t type_code = ReadU8(reader);
  union {
    uint64_t bits;
    double value;
  } number;
  if (reader->failed) return kTvmErrorRpcMalformedRequest;
  server->arg_type_codes[index] = type_code;
  switch (type_code) {
    case kTVMArgInt:
      server->arg_values[index].v_int64 = ToInt64(ReadU64(reader));
      break;
    case kTVMArgFloat:
      number.bits = ReadU64(reader);
      server->arg_values[index].v_float64 = number.value;
      break;
    case kTVMOpaqueHandle: {
      uint64_t bits = ReadU64(reader);
      if (!reader->failed && !ToPointer(bits, &server->arg_values[index].v_handle)) {
        return kTvmErrorInvalidArgument;
      }
      break;
    }
    case kTVMNullptr:
      server->arg_values[index].v_handle = NULL;
      break;
    case kTVMDLTensorHandle:
      return ReadTensor(server, reader, index);
    default:
      return kTvmErrorRpcMalformedRequest;
  }
  return reader->failed ? kTvmErrorRpcMalformedRequest : kTvmErrorNoError;
}

static void CallFunc(TVMRpcServer* server, Reader* reader) {
  uint64_t handle_bits = ReadU64(reader);
  uint8_t count = ReadU8(reader);
  void* handle = NULL;
  size_t i;
  int err = kTvmErrorNoError;
  TVMValue result;
  int result_type = kTVMNullptr;
  uint8_t results[9];
  union {
    uint64_t bits;
    double value;
  } number;
  if (reader->failed) {
    RespondStatus(server, kTvmRpcCallFunc, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (count > TVM_CRT_MAX_ARGS) {
    RespondStatus(server, kTvmRpcCallFunc, kTvmErrorFunctionCallNumArgs);
    return;
  }
  for (i = 0; i < count && err == kTvmErrorNoError; ++i) err = ReadArgument(server, reader, i);
  if (err == kTvmErrorNoError && Remaining(reader) != 0) err = kTvmErrorRpcMalformedRequest;
  if (err == kTvmErrorNoError && !ToPointer(handle_bits, &handle)) {
    err = kTvmErrorFunctionHandleInvalid;
  }
  if (err != kTvmErrorNoError) {
    RespondStatus(server, kTvmRpcCallFunc, err);
    return;
  }
  result.v_int64 = 0;
  err = TVMFuncCall((TVMFunctionHandle)handle, server->arg_values, server->arg_type_codes,
                    (int)count, &result, &result_type);
  if (err != kTvmErrorNoError) {
    RespondStatus(server, kTvmRpcCallFunc, err);
    return;
  }
  results[0] = (uint8_t)result_type;
  switch (result_type) {
    case kTVMArgInt:
    case kTVMArgUInt:
      number.bits = (uint64_t)result.v_int64;
      break;
    case kTVMArgFloat:
      number.value = result.v_float64;
      break;
    case kTVMNullptr:
      number.bits = 0;
      break;
    default: /* handles and strings: the pointer */
      number.bits = (uint64_t)(uintptr_t)result.v_handle;
      break;
  }
  PutU64(results + 1, number.bits);
  BeginResponse(server, kTvmRpcCallFunc, kTvmErrorNoError, sizeof(results));
  Write(server, results, sizeof(results));
  EndResponse(server);
}

/* ---- The model. ---- */

static void ModelInfo(TVMRpcServer* server, Reader* reader) {
  const TVMModelDescriptor* model = server->model;
  uint8_t word[4];
  uint8_t name_length = 0;
  size_t i;
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcModelInfo, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (model == NULL) {
    RespondStatus(server, kTvmRpcModelInfo, kTvmErrorRpcNoModel);
    return;
  }
  if (model->name != NULL) {
    while (name_length < 255 && model->name[name_length] != '\0') ++name_length;
  }
  BeginResponse(
      server, kTvmRpcModelInfo, kTvmErrorNoError,
      1u + name_length + 2u + 4u * ((size_t)model->num_inputs + model->num_outputs) + 12u);
  Write(server, &name_length, 1);
  Write(server, (const uint8_t*)model->name, name_length);
  Write(server, &model->num_inputs, 1);
  Write(server, &model->num_outputs, 1);
  for (i = 0; i < model->num_inputs; ++i) {
    loupe_put_le_u32(word, model->input_bytes[i]);
    Write(server, word, sizeof(word));
  }
  for (i = 0; i < model->num_outputs; ++i) {
    loupe_put_le_u32(word, model->output_bytes[i]);
    Write(server, word, sizeof(word));
  }
  loupe_put_le_u32(word, model->num_operators);
  Write(server, word, sizeof(word));
  loupe_put_le_u32(word, model->workspace_bytes);
  Write(server, word, sizeof(word));
  loupe_put_le_u32(word, model->state_bytes);
  Write(server, word, sizeof(word));
  EndResponse(server);
}

static void SetInput(TVMRpcServer* server, Reader* reader) {
  const TVMModelDescriptor* model = server->model;
  uint8_t index = ReadU8(reader);
  uint32_t offset = ReadU32(reader);
  size_t length;
  if (reader->failed) {
    RespondStatus(server, kTvmRpcSetInput, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (model == NULL) {
    RespondStatus(server, kTvmRpcSetInput, kTvmErrorRpcNoModel);
    return;
  }
  length = Remaining(reader);
  if (index >= model->num_inputs || !RangeFits(offset, length, model->input_bytes[index])) {
    RespondStatus(server, kTvmRpcSetInput, kTvmErrorInvalidArgument);
    return;
  }
  CopyBytes(model->inputs[index] + offset, reader->data + reader->position, length);
  RespondStatus(server, kTvmRpcSetInput, kTvmErrorNoError);
}

/* The server whose RUN is under way, for TVMDebugTensor; NULL between runs. */
static TVMRpcServer* running_server;

void TVMDebugTensor(uint32_t operator_index, uint32_t tensor_index, const void* data,
                    uint32_t size) {
  if (running_server == NULL) return;
  /* A failed write shows as the host's missing chunk, named there. */
  (void)TVMSession_SendTensor(&running_server->session, operator_index, tensor_index,
                              (const uint8_t*)data, size);
}

static void Run(TVMRpcServer* server, Reader* reader) {
  const TVMModelDescriptor* model = server->model;
  uint32_t start;
  uint32_t end;
  int32_t model_status;
  uint8_t results[12];
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcRun, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (model == NULL || model->run == NULL) {
    RespondStatus(server, kTvmRpcRun, kTvmErrorRpcNoModel);
    return;
  }
  TVMProfilerReset();
  /* The run's first profiler mark is the start of its total: the way into
   * the model counts to its first operator, not to no one. */
  start = TVMProfilerRunStart();
  running_server = server;
  model_status = model->run();
  running_server = NULL;
  end = TVMPlatformProfilerTicks();
  loupe_put_le_u32(results, (uint32_t)model_status);
  /* Unsigned subtraction: right across one wrap of the 32-bit counter. */
  PutU64(results + 4, (uint64_t)(uint32_t)(end - start));
  BeginResponse(server, kTvmRpcRun, kTvmErrorNoError, sizeof(results));
  Write(server, results, sizeof(results));
  EndResponse(server);
}

static void GetOutput(TVMRpcServer* server, Reader* reader) {
  const TVMModelDescriptor* model = server->model;
  uint8_t index = ReadU8(reader);
  uint32_t offset = ReadU32(reader);
  uint32_t length = ReadU32(reader);
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcGetOutput, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (model == NULL) {
    RespondStatus(server, kTvmRpcGetOutput, kTvmErrorRpcNoModel);
    return;
  }
  if (index >= model->num_outputs) {
    RespondStatus(server, kTvmRpcGetOutput, kTvmErrorInvalidArgument);
    return;
  }
  RespondRead(server, kTvmRpcGetOutput, model->outputs[index], model->output_bytes[index], offset,
              length);
}

static void GetProfile(TVMRpcServer* server, Reader* reader) {
  uint32_t first = ReadU32(reader);
  uint32_t count = ReadU32(reader);
  uint32_t operators = (uint32_t)TVMProfilerEntryCount();
  const TVMProfileEntry* entries = TVMProfilerEntries();
  uint8_t record[PROFILE_ENTRY_BYTES];
  uint32_t returned;
  uint32_t i;
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcGetProfile, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (server->model == NULL) {
    RespondStatus(server, kTvmRpcGetProfile, kTvmErrorRpcNoModel);
    return;
  }
  if (first > operators) {
    RespondStatus(server, kTvmRpcGetProfile, kTvmErrorInvalidArgument);
    return;
  }
  returned = operators - first;
  if (returned > count) returned = count;
  if (returned > MAX_PROFILE_ENTRIES) returned = MAX_PROFILE_ENTRIES;
  BeginResponse(server, kTvmRpcGetProfile, kTvmErrorNoError,
                8u + (size_t)returned * PROFILE_ENTRY_BYTES);
  loupe_put_le_u32(record, operators);
  loupe_put_le_u32(record + 4, returned);
  Write(server, record, 8);
  for (i = 0; i < returned; ++i) {
    loupe_put_le_u32(record, entries[first + i].calls);
    PutU64(record + 4, entries[first + i].last_ticks);
    Write(server, record, sizeof(record));
  }
  EndResponse(server);
}

static void ResetState(TVMRpcServer* server, Reader* reader) {
  if (!ReadExactly(reader)) {
    RespondStatus(server, kTvmRpcResetState, kTvmErrorRpcMalformedRequest);
    return;
  }
  if (server->model == NULL) {
    RespondStatus(server, kTvmRpcResetState, kTvmErrorRpcNoModel);
    return;
  }
  if (server->model->reset_state != NULL) server->model->reset_state();
  RespondStatus(server, kTvmRpcResetState, kTvmErrorNoError);
}

/* ---- Dispatch. ---- */

/* Requests whose work must not be done twice: a retransmission gets the kept response. */
static int HasSideEffects(uint8_t opcode) {
  return opcode == kTvmRpcRun || opcode == kTvmRpcCallFunc || opcode == kTvmRpcAlloc ||
         opcode == kTvmRpcFree || opcode == kTvmRpcResetState;
}

static void HandleRequest(void* context, TVMSession* session, const uint8_t* body, size_t size,
                          int is_retransmission) {
  TVMRpcServer* server = (TVMRpcServer*)context;
  uint8_t opcode = body[0];
  Reader reader;
  if (is_retransmission && HasSideEffects(opcode) && TVMSession_ResendResponse(session, opcode)) {
    return;
  }
  reader.data = body;
  reader.size = size;
  reader.position = 1;
  reader.failed = 0;
  switch (opcode) {
    case kTvmRpcGetGlobalFunc:
      GetGlobalFunc(server, &reader);
      break;
    case kTvmRpcCallFunc:
      CallFunc(server, &reader);
      break;
    case kTvmRpcAlloc:
      Alloc(server, &reader);
      break;
    case kTvmRpcFree:
      Free(server, &reader);
      break;
    case kTvmRpcCopyToDevice:
      CopyToDevice(server, &reader);
      break;
    case kTvmRpcCopyFromDevice:
      CopyFromDevice(server, &reader);
      break;
    case kTvmRpcModelInfo:
      ModelInfo(server, &reader);
      break;
    case kTvmRpcSetInput:
      SetInput(server, &reader);
      break;
    case kTvmRpcRun:
      Run(server, &reader);
      break;
    case kTvmRpcGetOutput:
      GetOutput(server, &reader);
      break;
    case kTvmRpcGetProfile:
      GetProfile(server, &reader);
      break;
    case kTvmRpcResetState:
      ResetState(server, &reader);
      break;
    default:
      RespondStatus(server, opcode, kTvmErrorRpcUnknownOpcode);
      break;
  }
}

/* A new session starts with no device memory: what an earlier host left
 * behind (it may have crashed) would otherwise fill the arena for good. */
static void ReleaseAllocations(void* context) {
  TVMRpcServer* server = (TVMRpcServer*)context;
  size_t i;
  /* Newest slot first: the stack allocator frees only in reverse order. */
  for (i = TVM_CRT_RPC_MAX_ALLOCATIONS; i-- > 0;) {
    if (server->allocations[i].data != NULL) ReleaseAllocation(&server->allocations[i]);
  }
}

tvm_crt_error_t TVMRpcServerInit(TVMRpcServer* server, const char* board_name,
                                 const TVMModelDescriptor* model, TVMFrameByteWriter write,
                                 void* write_context) {
  size_t i;
  server->model = model;
  for (i = 0; i < TVM_CRT_RPC_MAX_ALLOCATIONS; ++i) {
    server->allocations[i].data = NULL;
    server->allocations[i].bytes = 0;
    server->allocations[i].generation = 0;
  }
  TVMSession_Init(&server->session, board_name, TVMPlatformProfilerTicksPerSecond(), HandleRequest,
                  server, write, write_context);
  TVMSession_SetStartCallback(&server->session, ReleaseAllocations);
  return TVMSession_SendBoot(&server->session);
}

tvm_crt_error_t TVMRpcServerFeed(TVMRpcServer* server, uint8_t byte) {
  return TVMSession_Feed(&server->session, byte);
}

tvm_crt_error_t TVMRpcServerLog(TVMRpcServer* server, const char* text) {
  size_t size = 0;
  if (text != NULL) {
    while (text[size] != '\0') ++size;
  }
  return TVMSession_Log(&server->session, text, size);
}
