/*
 * The board's session and RPC server (docs/session_rpc.md), driven the way
 * the host drives it: frames built with TVMFrameEncode fed one byte at a
 * time, and everything the server writes decoded with TVMFrameDecoder and
 * checked message by message. The model is a tiny one of our own
 * (out[i] = in[i] + 1, two profiled operators, a run counter).
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/debug_tensors.h>
#include <tvm/runtime/crt/func_registry.h>
#include <tvm/runtime/crt/module.h>
#include <tvm/runtime/crt/platform.h>
#include <tvm/runtime/crt/profiler.h>
#include <tvm/runtime/crt/rpc_server.h>

#include "crt_test.h"

/* ---- A fake clock: the model moves it, the profiler and RUN read it. ---- */

static uint32_t fake_now;

uint32_t TVMPlatformProfilerTicks(void) {
  return fake_now;
}

uint32_t TVMPlatformProfilerTicksPerSecond(void) {
  return 1000000u;
}

/* ---- The test model. ---- */

#define INPUT_BYTES 8
#define OUTPUT_BYTES 8
#define BIG_OUTPUT_BYTES 1500

static uint8_t input0[INPUT_BYTES];
static uint8_t output0[OUTPUT_BYTES];
static uint8_t output1[BIG_OUTPUT_BYTES];
static int runs;
static int state_resets;

static int32_t RunModel(void) {
  size_t i;
  ++runs;
  for (i = 0; i < OUTPUT_BYTES; ++i) output0[i] = (uint8_t)(input0[i] + 1);
  fake_now += 100;
  TVMProfilerOperatorDone(0);
  for (i = 0; i < BIG_OUTPUT_BYTES; ++i) output1[i] = (uint8_t)(i * 3);
  fake_now += 50;
  TVMProfilerOperatorDone(1);
  return 7; /* a model status the server must pass through */
}

static void ResetModelState(void) {
  ++state_resets;
}

static uint8_t* const model_inputs[] = {input0};
static const uint32_t model_input_bytes[] = {INPUT_BYTES};
static uint8_t* const model_outputs[] = {output0, output1};
static const uint32_t model_output_bytes[] = {OUTPUT_BYTES, BIG_OUTPUT_BYTES};

static const TVMModelDescriptor test_model = {"add_one",
                                              1,
                                              2,
                                              model_inputs,
                                              model_input_bytes,
                                              model_outputs,
                                              model_output_bytes,
                                              2 /* operators */,
                                              64 /* workspace */,
                                              4 /* state */,
                                              RunModel,
                                              ResetModelState};

/* ---- Functions in the global registry. ---- */

static int calls;

/* Sums its int arguments; a float argument makes it return twice that float. */
static int SumInts(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, int* ret_code,
                   void* resource_handle) {
  int64_t sum = 0;
  int i;
  (void)resource_handle;
  ++calls;
  for (i = 0; i < num_args; ++i) {
    if (type_codes[i] == kTVMArgFloat) {
      ret->v_float64 = 2.0 * args[i].v_float64;
      *ret_code = kTVMArgFloat;
      return 0;
    }
    if (type_codes[i] != kTVMArgInt) return -1;
    sum += args[i].v_int64;
  }
  ret->v_int64 = sum;
  *ret_code = kTVMArgInt;
  return 0;
}

/* Fills a uint8 tensor with 10, 11, 12, ... over all its elements. */
static int FillTensor(TVMValue* args, int* type_codes, int num_args, TVMValue* ret, int* ret_code,
                      void* resource_handle) {
  DLTensor* tensor;
  int64_t elements = 1;
  int64_t i;
  (void)ret;
  (void)ret_code;
  (void)resource_handle;
  ++calls;
  if (num_args != 1 || type_codes[0] != kTVMDLTensorHandle) return -1;
  tensor = (DLTensor*)args[0].v_handle;
  for (i = 0; i < tensor->ndim; ++i) elements *= tensor->shape[i];
  for (i = 0; i < elements; ++i) ((uint8_t*)tensor->data)[i] = (uint8_t)(10 + i);
  return 0;
}

/* TVMInitializeRuntime registers "runtime.SystemLib", which needs a system lib. */
static const char kSystemLibNames[] =
    "\x01\x00"
    "system_sum\0";
static const TVMBackendPackedCFunc kSystemLibFuncs[] = {SumInts};
static const TVMFuncRegistry kSystemLibRegistry = {kSystemLibNames, kSystemLibFuncs};
static const TVMModule kSystemLib = {&kSystemLibRegistry};

const TVMModule* TVMSystemLibEntryPoint(void) {
  return &kSystemLib;
}

/* ---- The link: what the server writes, decoded into messages. ---- */

#define MAX_MESSAGES 16
#define MAX_MESSAGE_BYTES 4096

static uint8_t wire[1 << 16];
static size_t wire_size;

static tvm_crt_error_t CaptureByte(void* context, uint8_t byte) {
  (void)context;
  if (wire_size >= sizeof(wire)) return kTvmErrorPlatformNoMemory;
  wire[wire_size++] = byte;
  return kTvmErrorNoError;
}

static uint8_t messages[MAX_MESSAGES][MAX_MESSAGE_BYTES];
static size_t message_sizes[MAX_MESSAGES];
static size_t message_count;

/* Decodes everything written since the last call into messages. */
static void DecodeWire(void) {
  static uint8_t buffer[MAX_MESSAGE_BYTES];
  TVMFrameDecoder decoder;
  size_t i;
  TVMFrameDecoder_Init(&decoder, buffer, sizeof(buffer));
  message_count = 0;
  for (i = 0; i < wire_size; ++i) {
    TVMFrameEvent event = TVMFrameDecoder_Feed(&decoder, wire[i]);
    CRT_EXPECT(event == kTvmFrameNone || event == kTvmFrameComplete);
    if (event == kTvmFrameComplete && message_count < MAX_MESSAGES) {
      memcpy(messages[message_count], buffer, decoder.length);
      message_sizes[message_count++] = decoder.length;
    }
  }
  wire_size = 0;
}

/* ---- The host's side. ---- */

static TVMRpcServer server;
static uint8_t arena[16 * 1024];
static uint8_t host_nonce;
static uint8_t board_nonce;

static void FeedBytes(const uint8_t* bytes, size_t size) {
  size_t i;
  for (i = 0; i < size; ++i)
    CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMRpcServerFeed(&server, bytes[i]));
}

static uint8_t frame[2 * MAX_MESSAGE_BYTES + 8];
static size_t frame_size;

static tvm_crt_error_t FrameByte(void* context, uint8_t byte) {
  (void)context;
  frame[frame_size++] = byte;
  return kTvmErrorNoError;
}

static void BuildFrame(const uint8_t* payload, size_t size) {
  frame_size = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncode(payload, size, FrameByte, NULL));
}

/* Sends one message as a frame and decodes what came back. */
static void SendMessage(const uint8_t* payload, size_t size) {
  BuildFrame(payload, size);
  FeedBytes(frame, frame_size);
  DecodeWire();
}

static void SendHeaderAndBody(uint8_t type, uint8_t hn, uint8_t bn, uint8_t seq,
                              const uint8_t* body, size_t size) {
  static uint8_t payload[MAX_MESSAGE_BYTES];
  payload[0] = type;
  payload[1] = hn;
  payload[2] = bn;
  payload[3] = seq;
  if (size > 0) memcpy(payload + 4, body, size);
  SendMessage(payload, 4 + size);
}

static uint32_t U32At(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t U64At(const uint8_t* p) {
  return (uint64_t)U32At(p) | ((uint64_t)U32At(p + 4) << 32);
}

static void PutU32(uint8_t* p, uint32_t v) {
  int i;
  for (i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static void PutU64(uint8_t* p, uint64_t v) {
  int i;
  for (i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

/* A START with host nonce hn; returns the board nonce of STARTED (0 if none). */
static uint8_t StartSession(uint8_t hn) {
  static const uint8_t version = 1;
  SendHeaderAndBody(kTvmSessionStart, hn, 0, 0, &version, 1);
  CRT_EXPECT_EQ_INT(1, message_count);
  if (message_count != 1) return 0;
  CRT_EXPECT_EQ_INT(kTvmSessionStarted, messages[0][0]);
  CRT_EXPECT_EQ_INT(hn, messages[0][1]);
  CRT_EXPECT_EQ_INT(0, messages[0][3]);
  host_nonce = hn;
  board_nonce = messages[0][2];
  return board_nonce;
}

static void Setup(const TVMModelDescriptor* model) {
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMInitializeRuntime());
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMPlatformMemoryInit(arena, sizeof(arena)));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegisterGlobal("test.sum", SumInts, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFuncRegisterGlobal("test.fill", FillTensor, 0));
  runs = 0;
  calls = 0;
  state_resets = 0;
  fake_now = 1000;
  memset(input0, 0, sizeof(input0));
  wire_size = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMRpcServerInit(&server, "test_board", model, CaptureByte, NULL));
  DecodeWire();
  CRT_EXPECT_EQ_INT(1, message_count); /* BOOT */
}

/* Requests with a fresh sequence number each. */
static uint8_t next_seq = 1;

static void SetupSession(void) {
  Setup(&test_model);
  StartSession(0x5A);
  next_seq = 1;
}

/* The response body of the single message that came back, NULL if there is none. */
static const uint8_t* response;
static size_t response_size;

static void Request(uint8_t seq, const uint8_t* body, size_t size) {
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, board_nonce, seq, body, size);
  response = NULL;
  response_size = 0;
  CRT_EXPECT_EQ_INT(1, message_count);
  if (message_count != 1) return;
  CRT_EXPECT_EQ_INT(kTvmSessionResponse, messages[0][0]);
  CRT_EXPECT_EQ_INT(host_nonce, messages[0][1]);
  CRT_EXPECT_EQ_INT(board_nonce, messages[0][2]);
  CRT_EXPECT_EQ_INT(seq, messages[0][3]);
  CRT_EXPECT(message_sizes[0] >= 4 + TVM_RPC_RESPONSE_HEADER_BYTES);
  CRT_EXPECT_EQ_INT(body[0], messages[0][4]);
  response = messages[0] + 4;
  response_size = message_sizes[0] - 4;
}

static uint8_t NextSeq(void) {
  uint8_t seq = next_seq;
  next_seq = (uint8_t)(next_seq == 255 ? 1 : next_seq + 1);
  return seq;
}

static int32_t Status(void) {
  return response != NULL ? (int32_t)U32At(response + 1) : -1;
}

/* Sends body as a new request; returns its status. */
static int32_t Call(const uint8_t* body, size_t size) {
  Request(NextSeq(), body, size);
  return Status();
}

static const uint8_t* Results(void) {
  return response + TVM_RPC_RESPONSE_HEADER_BYTES;
}

static size_t ResultsSize(void) {
  return response_size - TVM_RPC_RESPONSE_HEADER_BYTES;
}

static uint64_t Alloc(uint32_t bytes) {
  uint8_t body[5] = {kTvmRpcAlloc};
  PutU32(body + 1, bytes);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(8, ResultsSize());
  return U64At(Results());
}

/* ---- Session. ---- */

static void test_boot_is_sent_once_with_version_and_board_name(void) {
  Setup(&test_model);
  wire_size = 0;
  TVMRpcServerInit(&server, "test_board", &test_model, CaptureByte, NULL);
  DecodeWire();
  CRT_EXPECT_EQ_INT(1, message_count);
  CRT_EXPECT_EQ_INT(4 + 1 + 10, message_sizes[0]);
  CRT_EXPECT_EQ_INT(kTvmSessionBoot, messages[0][0]);
  CRT_EXPECT_EQ_INT(0, messages[0][1]);
  CRT_EXPECT_EQ_INT(0, messages[0][2]);
  CRT_EXPECT_EQ_INT(0, messages[0][3]);
  CRT_EXPECT_EQ_INT(1, messages[0][4]);
  CRT_EXPECT(memcmp(messages[0] + 5, "test_board", 10) == 0);
}

static void test_start_is_answered_with_started_and_a_new_board_nonce(void) {
  uint8_t first;
  uint8_t second;
  Setup(&test_model);
  first = StartSession(0x21);
  CRT_EXPECT(first != 0);
  CRT_EXPECT_EQ_INT(4 + 7 + 10, message_sizes[0]);
  CRT_EXPECT_EQ_INT(1, messages[0][4]);
  CRT_EXPECT_EQ_INT(TVM_CRT_RPC_RECEIVE_BUFFER_BYTES, messages[0][5] | (messages[0][6] << 8));
  CRT_EXPECT_EQ_INT(1000000, U32At(messages[0] + 7));
  CRT_EXPECT(memcmp(messages[0] + 11, "test_board", 10) == 0);
  second = StartSession(0x21);
  CRT_EXPECT(second != 0);
  CRT_EXPECT(second != first);
}

static void test_a_request_before_start_is_nakked_no_session(void) {
  static const uint8_t body[] = {kTvmRpcModelInfo};
  Setup(&test_model);
  SendHeaderAndBody(kTvmSessionRequest, 1, 1, 1, body, sizeof(body));
  CRT_EXPECT_EQ_INT(1, message_count);
  CRT_EXPECT_EQ_INT(5, message_sizes[0]);
  CRT_EXPECT_EQ_INT(kTvmSessionNak, messages[0][0]);
  CRT_EXPECT_EQ_INT(0, messages[0][1]);
  CRT_EXPECT_EQ_INT(0, messages[0][2]);
  CRT_EXPECT_EQ_INT(kTvmSessionNakNoSession, messages[0][4]);
}

static void test_requests_with_stale_nonces_are_dropped(void) {
  static const uint8_t run[] = {kTvmRpcRun};
  uint8_t old_board_nonce;
  SetupSession();
  SendHeaderAndBody(kTvmSessionRequest, (uint8_t)(host_nonce + 1), board_nonce, 1, run, 1);
  CRT_EXPECT_EQ_INT(0, message_count);
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, (uint8_t)(board_nonce + 1), 2, run, 1);
  CRT_EXPECT_EQ_INT(0, message_count);
  CRT_EXPECT_EQ_INT(0, runs);
  /* After a new START, the previous session's nonces are stale. */
  old_board_nonce = board_nonce;
  StartSession(host_nonce);
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, old_board_nonce, 3, run, 1);
  CRT_EXPECT_EQ_INT(0, message_count);
  CRT_EXPECT_EQ_INT(0, runs);
  Request(3, run, 1);
  CRT_EXPECT_EQ_INT(1, runs);
}

static void ExpectNak(uint8_t reason) {
  CRT_EXPECT_EQ_INT(1, message_count);
  if (message_count != 1) return;
  CRT_EXPECT_EQ_INT(5, message_sizes[0]);
  CRT_EXPECT_EQ_INT(kTvmSessionNak, messages[0][0]);
  CRT_EXPECT_EQ_INT(host_nonce, messages[0][1]);
  CRT_EXPECT_EQ_INT(board_nonce, messages[0][2]);
  CRT_EXPECT_EQ_INT(reason, messages[0][4]);
}

static void test_malformed_messages_are_nakked(void) {
  static const uint8_t short_message[] = {kTvmSessionRequest, 1, 2};
  static const uint8_t bad_version = 2;
  static const uint8_t run[] = {kTvmRpcRun};
  SetupSession();
  SendMessage(short_message, sizeof(short_message));
  ExpectNak(kTvmSessionNakMalformed);
  SendHeaderAndBody(0x42, host_nonce, board_nonce, 1, run, 1);
  ExpectNak(kTvmSessionNakMalformed);
  SendHeaderAndBody(kTvmSessionStart, 9, 0, 0, &bad_version, 1);
  ExpectNak(kTvmSessionNakMalformed);
  SendHeaderAndBody(kTvmSessionStart, 9, 0, 0, NULL, 0);
  ExpectNak(kTvmSessionNakMalformed);
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, board_nonce, 0, run, 1);
  ExpectNak(kTvmSessionNakMalformed);
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, board_nonce, 1, NULL, 0);
  ExpectNak(kTvmSessionNakMalformed);
  /* The session survived all of it; the board's own message types are ignored. */
  SendHeaderAndBody(kTvmSessionResponse, host_nonce, board_nonce, 1, run, 1);
  CRT_EXPECT_EQ_INT(0, message_count);
  SendHeaderAndBody(kTvmSessionBoot, 0, 0, 0, run, 1);
  CRT_EXPECT_EQ_INT(0, message_count);
  CRT_EXPECT_EQ_INT(0, runs);
  Request(1, run, 1);
  CRT_EXPECT_EQ_INT(1, runs);
}

static void test_dropped_frames_are_nakked_with_their_framing_reason(void) {
  static uint8_t payload[TVM_CRT_RPC_RECEIVE_BUFFER_BYTES + 1];
  static const uint8_t garbage[] = {'b', 'o', 'o', 't', ' ', 'b', 'a', 'n', 'n', 'e', 'r'};
  static const uint8_t model_info[] = {kTvmRpcModelInfo};
  SetupSession();
  payload[0] = kTvmSessionRequest;
  payload[1] = host_nonce;
  payload[2] = board_nonce;
  payload[3] = 1;
  payload[4] = kTvmRpcModelInfo;
  /* CRC mismatch: flip a payload bit. */
  BuildFrame(payload, 5);
  frame[5] ^= 0x01;
  FeedBytes(frame, frame_size);
  DecodeWire();
  ExpectNak(kTvmSessionNakCrcMismatch);
  /* Too long for the receive buffer. */
  BuildFrame(payload, sizeof(payload));
  FeedBytes(frame, frame_size);
  DecodeWire();
  ExpectNak(kTvmSessionNakTooLong);
  /* Bad escape: 0x7D followed by a byte no encoder sends. */
  BuildFrame(payload, 5);
  frame[4] = TVM_FRAME_ESCAPE;
  frame[5] = 0x01;
  FeedBytes(frame, frame_size);
  DecodeWire();
  ExpectNak(kTvmSessionNakBadEscape);
  /* Truncated: half a frame, then a whole one, which is still answered. */
  BuildFrame(payload, 5);
  FeedBytes(frame, 4);
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, board_nonce, 1, model_info, 1);
  CRT_EXPECT_EQ_INT(2, message_count);
  CRT_EXPECT_EQ_INT(kTvmSessionNak, messages[0][0]);
  CRT_EXPECT_EQ_INT(kTvmSessionNakTruncated, messages[0][4]);
  CRT_EXPECT_EQ_INT(kTvmSessionResponse, messages[1][0]);
  /* Garbage between frames: no NAK at all. */
  FeedBytes(garbage, sizeof(garbage));
  Request(2, model_info, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
}

static void test_log_messages_carry_the_sessions_nonces_or_none(void) {
  Setup(&test_model);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMRpcServerLog(&server, "hello"));
  DecodeWire();
  CRT_EXPECT_EQ_INT(1, message_count);
  CRT_EXPECT_EQ_INT(4 + 5, message_sizes[0]);
  CRT_EXPECT_EQ_INT(kTvmSessionLog, messages[0][0]);
  CRT_EXPECT_EQ_INT(0, messages[0][1]);
  CRT_EXPECT_EQ_INT(0, messages[0][2]);
  CRT_EXPECT(memcmp(messages[0] + 4, "hello", 5) == 0);
  StartSession(0x33);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMRpcServerLog(&server, "in session"));
  DecodeWire();
  CRT_EXPECT_EQ_INT(1, message_count);
  CRT_EXPECT_EQ_INT(0x33, messages[0][1]);
  CRT_EXPECT_EQ_INT(board_nonce, messages[0][2]);
  CRT_EXPECT(memcmp(messages[0] + 4, "in session", 10) == 0);
}

/* ---- The model. ---- */

static void test_model_info_describes_the_descriptor(void) {
  static const uint8_t body[] = {kTvmRpcModelInfo};
  const uint8_t* r;
  SetupSession();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, 1));
  CRT_EXPECT_EQ_INT(1 + 7 + 2 + 4 + 8 + 12, ResultsSize());
  r = Results();
  CRT_EXPECT_EQ_INT(7, r[0]);
  CRT_EXPECT(memcmp(r + 1, "add_one", 7) == 0);
  CRT_EXPECT_EQ_INT(1, r[8]);
  CRT_EXPECT_EQ_INT(2, r[9]);
  CRT_EXPECT_EQ_INT(INPUT_BYTES, U32At(r + 10));
  CRT_EXPECT_EQ_INT(OUTPUT_BYTES, U32At(r + 14));
  CRT_EXPECT_EQ_INT(BIG_OUTPUT_BYTES, U32At(r + 18));
  CRT_EXPECT_EQ_INT(2, U32At(r + 22));
  CRT_EXPECT_EQ_INT(64, U32At(r + 26));
  CRT_EXPECT_EQ_INT(4, U32At(r + 30));
  /* An argument too many is malformed. */
  {
    static const uint8_t long_body[] = {kTvmRpcModelInfo, 0};
    CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(long_body, sizeof(long_body)));
  }
}

static void test_set_input_run_and_get_output(void) {
  uint8_t set[1 + 1 + 4 + INPUT_BYTES] = {kTvmRpcSetInput, 0};
  static const uint8_t run[] = {kTvmRpcRun};
  uint8_t get[10] = {kTvmRpcGetOutput, 0};
  size_t i;
  SetupSession();
  PutU32(set + 2, 0);
  for (i = 0; i < INPUT_BYTES; ++i) set[6 + i] = (uint8_t)(40 + i);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(set, sizeof(set)));
  CRT_EXPECT_EQ_INT(0, ResultsSize());
  /* A partial write at an offset. */
  PutU32(set + 2, 6);
  set[6] = 200;
  set[7] = 201;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(set, 8));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(run, 1));
  CRT_EXPECT_EQ_INT(12, ResultsSize());
  CRT_EXPECT_EQ_INT(7, (int32_t)U32At(Results()));
  CRT_EXPECT_EQ_INT(150, U64At(Results() + 4));
  CRT_EXPECT_EQ_INT(1, runs);
  PutU32(get + 2, 0);
  PutU32(get + 6, OUTPUT_BYTES);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(get, sizeof(get)));
  CRT_EXPECT_EQ_INT(OUTPUT_BYTES, ResultsSize());
  for (i = 0; i < 6; ++i) CRT_EXPECT_EQ_INT(41 + i, Results()[i]);
  CRT_EXPECT_EQ_INT(201, Results()[6]);
  CRT_EXPECT_EQ_INT(202, Results()[7]);
  /* A read in the middle. */
  PutU32(get + 2, 3);
  PutU32(get + 6, 2);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(get, sizeof(get)));
  CRT_EXPECT_EQ_INT(2, ResultsSize());
  CRT_EXPECT_EQ_INT(44, Results()[0]);
}

static void test_a_long_output_comes_back_in_pieces_of_max_request_minus_16(void) {
  static const uint8_t run[] = {kTvmRpcRun};
  uint8_t get[10] = {kTvmRpcGetOutput, 1};
  size_t i;
  int ok = 1;
  SetupSession();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(run, 1));
  PutU32(get + 2, 0);
  PutU32(get + 6, BIG_OUTPUT_BYTES);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(get, sizeof(get)));
  CRT_EXPECT_EQ_INT(TVM_CRT_RPC_RECEIVE_BUFFER_BYTES - 16, ResultsSize());
  for (i = 0; i < ResultsSize(); ++i) ok &= Results()[i] == (uint8_t)(i * 3);
  CRT_EXPECT(ok);
  PutU32(get + 2, TVM_CRT_RPC_RECEIVE_BUFFER_BYTES - 16);
  PutU32(get + 6, BIG_OUTPUT_BYTES - (TVM_CRT_RPC_RECEIVE_BUFFER_BYTES - 16));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(get, sizeof(get)));
  CRT_EXPECT_EQ_INT(BIG_OUTPUT_BYTES - (TVM_CRT_RPC_RECEIVE_BUFFER_BYTES - 16), ResultsSize());
  CRT_EXPECT_EQ_INT((uint8_t)((TVM_CRT_RPC_RECEIVE_BUFFER_BYTES - 16) * 3), Results()[0]);
}

static void test_model_ranges_are_checked(void) {
  uint8_t set[8] = {kTvmRpcSetInput, 0};
  uint8_t get[10] = {kTvmRpcGetOutput, 0};
  SetupSession();
  /* Input index beyond the model's inputs. */
  set[1] = 1;
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(set, sizeof(set)));
  /* Offset + length one past the end, and an offset that would wrap. */
  set[1] = 0;
  PutU32(set + 2, INPUT_BYTES - 1);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(set, sizeof(set)));
  PutU32(set + 2, 0xFFFFFFFFu);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(set, sizeof(set)));
  PutU32(set + 2, INPUT_BYTES - 2);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(set, sizeof(set)));
  /* Too short to hold index and offset. */
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(set, 5));
  get[1] = 2;
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(get, sizeof(get)));
  get[1] = 0;
  PutU32(get + 2, 1);
  PutU32(get + 6, OUTPUT_BYTES);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(get, sizeof(get)));
  PutU32(get + 2, 0xFFFFFFF0u);
  PutU32(get + 6, 0x20);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(get, sizeof(get)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(get, 9));
}

static void test_a_retransmitted_run_is_answered_without_running_again(void) {
  static const uint8_t run[] = {kTvmRpcRun};
  static const uint8_t get[] = {kTvmRpcGetOutput, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  uint8_t first[64];
  size_t first_size;
  SetupSession();
  Request(5, run, 1);
  CRT_EXPECT_EQ_INT(1, runs);
  first_size = message_sizes[0];
  memcpy(first, messages[0], first_size);
  fake_now += 12345; /* a rerun would measure the same, so the count decides */
  Request(5, run, 1);
  CRT_EXPECT_EQ_INT(1, runs);
  CRT_EXPECT_EQ_INT(first_size, message_sizes[0]);
  CRT_EXPECT(memcmp(first, messages[0], first_size) == 0);
  /* A new sequence number runs again. */
  Request(6, run, 1);
  CRT_EXPECT_EQ_INT(2, runs);
  /* A retransmitted read is simply answered again. */
  Request(7, get, sizeof(get));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
  Request(7, get, sizeof(get));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
  CRT_EXPECT_EQ_INT(1, ResultsSize());
  CRT_EXPECT_EQ_INT(2, runs);
}

static void test_get_profile_reads_the_last_runs_operators(void) {
  static const uint8_t run[] = {kTvmRpcRun};
  uint8_t body[9] = {kTvmRpcGetProfile};
  SetupSession();
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(run, 1));
  PutU32(body + 1, 0);
  PutU32(body + 5, 10);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(8 + 2 * 12, ResultsSize());
  CRT_EXPECT_EQ_INT(2, U32At(Results()));
  CRT_EXPECT_EQ_INT(2, U32At(Results() + 4));
  CRT_EXPECT_EQ_INT(1, U32At(Results() + 8));
  CRT_EXPECT_EQ_INT(100, U64At(Results() + 12));
  CRT_EXPECT_EQ_INT(1, U32At(Results() + 20));
  CRT_EXPECT_EQ_INT(50, U64At(Results() + 24));
  /* From operator 1, and past the end. */
  PutU32(body + 1, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(1, U32At(Results() + 4));
  CRT_EXPECT_EQ_INT(50, U64At(Results() + 12));
  PutU32(body + 1, 2);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(0, U32At(Results() + 4));
  PutU32(body + 1, 3);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, sizeof(body)));
  /* count limits what comes back. */
  PutU32(body + 1, 0);
  PutU32(body + 5, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(8 + 12, ResultsSize());
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, 5));
}

static void test_reset_state_is_done_once_per_request(void) {
  static const uint8_t reset[] = {kTvmRpcResetState};
  SetupSession();
  Request(9, reset, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
  Request(9, reset, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
  CRT_EXPECT_EQ_INT(1, state_resets);
  Request(10, reset, 1);
  CRT_EXPECT_EQ_INT(2, state_resets);
}

static void test_model_opcodes_fail_without_a_model(void) {
  static const uint8_t info[] = {kTvmRpcModelInfo};
  static const uint8_t run[] = {kTvmRpcRun};
  static const uint8_t reset[] = {kTvmRpcResetState};
  static const uint8_t set[] = {kTvmRpcSetInput, 0, 0, 0, 0, 0, 1};
  static const uint8_t get[] = {kTvmRpcGetOutput, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  static const uint8_t profile[] = {kTvmRpcGetProfile, 0, 0, 0, 0, 1, 0, 0, 0};
  Setup(NULL);
  StartSession(0x44);
  CRT_EXPECT_EQ_INT(kTvmErrorRpcNoModel, Call(info, sizeof(info)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcNoModel, Call(run, sizeof(run)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcNoModel, Call(reset, sizeof(reset)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcNoModel, Call(set, sizeof(set)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcNoModel, Call(get, sizeof(get)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcNoModel, Call(profile, sizeof(profile)));
  CRT_EXPECT_EQ_INT(0, ResultsSize());
}

static void test_an_unknown_opcode_is_an_error_response(void) {
  static const uint8_t body[] = {0x7F, 1, 2, 3};
  SetupSession();
  CRT_EXPECT_EQ_INT(kTvmErrorRpcUnknownOpcode, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(0x7F, response[0]);
  CRT_EXPECT_EQ_INT(0, ResultsSize());
}

/* ---- Device memory. ---- */

static void test_alloc_copy_and_free(void) {
  uint8_t to[1 + 8 + 4 + 4] = {kTvmRpcCopyToDevice};
  uint8_t from[1 + 8 + 4 + 4] = {kTvmRpcCopyFromDevice};
  uint8_t free_body[9] = {kTvmRpcFree};
  uint64_t handle;
  uint64_t other;
  SetupSession();
  handle = Alloc(16);
  other = Alloc(16);
  CRT_EXPECT(handle != 0);
  CRT_EXPECT(handle != other);
  PutU64(to + 1, handle);
  PutU32(to + 9, 12);
  to[13] = 1;
  to[14] = 2;
  to[15] = 3;
  to[16] = 4;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(to, sizeof(to)));
  PutU64(from + 1, handle);
  PutU32(from + 9, 11);
  PutU32(from + 13, 5);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(from, sizeof(from)));
  CRT_EXPECT_EQ_INT(5, ResultsSize());
  CRT_EXPECT_EQ_INT(1, Results()[1]);
  CRT_EXPECT_EQ_INT(4, Results()[4]);
  /* One byte past the end, an offset that would wrap, and the end itself. */
  PutU32(to + 9, 13);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(to, sizeof(to)));
  PutU32(to + 9, 0xFFFFFFFEu);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(to, sizeof(to)));
  PutU32(to + 9, 16);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(to, 13));
  PutU32(from + 9, 16);
  PutU32(from + 13, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  PutU32(from + 9, 1);
  PutU32(from + 13, 0xFFFFFFFFu);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(from, 12));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(to, 12));
  /* Handles the board never gave out. */
  PutU64(from + 1, 0);
  PutU32(from + 9, 0);
  PutU32(from + 13, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  PutU64(from + 1, handle | ((uint64_t)1 << 40));
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  PutU64(from + 1, TVM_CRT_RPC_MAX_ALLOCATIONS + 1);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  /* Freed once; then the handle is dead for every opcode. */
  PutU64(free_body + 1, handle);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(free_body, sizeof(free_body)));
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(free_body, sizeof(free_body)));
  PutU64(from + 1, handle);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  /* The slot is reused with a different handle; the old one stays dead. */
  CRT_EXPECT(Alloc(16) != handle);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(free_body, 5));
}

static void test_alloc_refuses_zero_bytes_and_a_full_table(void) {
  uint8_t body[5] = {kTvmRpcAlloc};
  size_t i;
  SetupSession();
  PutU32(body + 1, 0);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, sizeof(body)));
  PutU32(body + 1, 0xFFFFFFFFu);
  CRT_EXPECT(Call(body, sizeof(body)) != kTvmErrorNoError);
  for (i = 0; i < TVM_CRT_RPC_MAX_ALLOCATIONS; ++i) Alloc(8);
  PutU32(body + 1, 8);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, Call(body, sizeof(body)));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, 4));
}

static void test_a_retransmitted_alloc_hands_out_one_block(void) {
  uint8_t body[5] = {kTvmRpcAlloc};
  uint64_t first;
  SetupSession();
  PutU32(body + 1, 32);
  Request(40, body, sizeof(body));
  first = U64At(Results());
  Request(40, body, sizeof(body));
  CRT_EXPECT_EQ_INT(first, U64At(Results()));
  Request(41, body, sizeof(body));
  CRT_EXPECT(first != U64At(Results()));
}

static void test_a_new_start_releases_the_previous_sessions_memory(void) {
  uint8_t from[1 + 8 + 4 + 4] = {kTvmRpcCopyFromDevice};
  static const uint8_t run[] = {kTvmRpcRun};
  uint64_t handle;
  size_t i;
  SetupSession();
  Request(1, run, 1);
  CRT_EXPECT_EQ_INT(1, runs);
  next_seq = 2;
  handle = Alloc(8);
  StartSession(0x77);
  /* Numbering starts over: sequence 1 is a new request, not a repeat. */
  Request(1, run, 1);
  CRT_EXPECT_EQ_INT(2, runs);
  PutU64(from + 1, handle);
  PutU32(from + 9, 0);
  PutU32(from + 13, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(from, sizeof(from)));
  /* All slots are free again. */
  for (i = 0; i < TVM_CRT_RPC_MAX_ALLOCATIONS; ++i) Alloc(8);
}

/* ---- Functions. ---- */

static uint64_t GetGlobal(const char* name) {
  uint8_t body[64] = {kTvmRpcGetGlobalFunc};
  size_t length = strlen(name);
  memcpy(body + 1, name, length);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, 1 + length));
  CRT_EXPECT_EQ_INT(8, ResultsSize());
  return U64At(Results());
}

static void test_get_global_func_finds_registered_functions_only(void) {
  static const uint8_t unknown[] = {kTvmRpcGetGlobalFunc, 'n', 'o', 'p', 'e'};
  static const uint8_t with_nul[] = {kTvmRpcGetGlobalFunc, 't', 0, 'x'};
  static const uint8_t empty[] = {kTvmRpcGetGlobalFunc};
  static uint8_t too_long[1 + TVM_CRT_MAX_FUNCTION_NAME_BYTES];
  SetupSession();
  CRT_EXPECT(GetGlobal("test.sum") != GetGlobal("test.fill"));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameNotFound, Call(unknown, sizeof(unknown)));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameInvalid, Call(with_nul, sizeof(with_nul)));
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameInvalid, Call(empty, sizeof(empty)));
  memset(too_long, 'a', sizeof(too_long));
  too_long[0] = kTvmRpcGetGlobalFunc;
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionNameInvalid, Call(too_long, sizeof(too_long)));
}

static size_t PutIntArgument(uint8_t* p, int64_t value) {
  p[0] = kTVMArgInt;
  PutU64(p + 1, (uint64_t)value);
  return 9;
}

static void test_call_func_passes_scalars_and_returns_the_result(void) {
  uint8_t body[128] = {kTvmRpcCallFunc};
  size_t size = 10;
  union {
    double value;
    uint64_t bits;
  } number;
  SetupSession();
  PutU64(body + 1, GetGlobal("test.sum"));
  body[9] = 3;
  size += PutIntArgument(body + size, 40);
  size += PutIntArgument(body + size, 5);
  size += PutIntArgument(body + size, -3);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, size));
  CRT_EXPECT_EQ_INT(9, ResultsSize());
  CRT_EXPECT_EQ_INT(kTVMArgInt, Results()[0]);
  CRT_EXPECT_EQ_INT(42, (int64_t)U64At(Results() + 1));
  /* A float argument comes back doubled. */
  number.value = 1.25;
  body[9] = 1;
  body[10] = kTVMArgFloat;
  PutU64(body + 11, number.bits);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, 19));
  CRT_EXPECT_EQ_INT(kTVMArgFloat, Results()[0]);
  number.bits = U64At(Results() + 1);
  CRT_EXPECT(number.value == 2.5);
  /* The function's own failure (a null argument it does not take). */
  body[9] = 1;
  body[10] = kTVMNullptr;
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionCallFailed, Call(body, 11));
  CRT_EXPECT_EQ_INT(3, calls);
}

static void test_call_func_refuses_bad_requests(void) {
  uint8_t body[256] = {kTvmRpcCallFunc};
  size_t size = 10;
  size_t i;
  SetupSession();
  PutU64(body + 1, GetGlobal("test.sum"));
  /* Too many arguments. */
  body[9] = TVM_CRT_MAX_ARGS + 1;
  for (i = 0; i < TVM_CRT_MAX_ARGS + 1; ++i) size += PutIntArgument(body + size, 1);
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionCallNumArgs, Call(body, size));
  /* Fewer bytes than the count says, and bytes left over. */
  body[9] = 2;
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, 10 + 9 + 4));
  body[9] = 1;
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, 10 + 9 + 1));
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, 9));
  /* A type code the protocol does not carry. */
  body[10] = kTVMStr;
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, 19));
  /* A handle that names no function. */
  body[10] = kTVMArgInt;
  PutU64(body + 1, 0x7FFF);
  CRT_EXPECT_EQ_INT(kTvmErrorFunctionHandleInvalid, Call(body, 19));
  PutU64(body + 1, (uint64_t)1 << 63);
  CRT_EXPECT(Call(body, 19) != kTvmErrorNoError);
  CRT_EXPECT_EQ_INT(0, calls);
}

/* A DLTensor argument: device handle, ndim, dtype, shape. */
static size_t PutTensorArgument(uint8_t* p, uint64_t handle, uint8_t ndim, const int64_t* shape) {
  size_t i;
  p[0] = kTVMDLTensorHandle;
  PutU64(p + 1, handle);
  p[9] = ndim;
  p[10] = 1; /* uint */
  p[11] = 8;
  p[12] = 1;
  p[13] = 0;
  for (i = 0; i < ndim; ++i) PutU64(p + 14 + 8 * i, (uint64_t)shape[i]);
  return 14 + 8 * (size_t)ndim;
}

static void test_call_func_builds_tensors_inside_allocations_only(void) {
  uint8_t body[256] = {kTvmRpcCallFunc};
  uint8_t from[1 + 8 + 4 + 4] = {kTvmRpcCopyFromDevice};
  static const int64_t fits[] = {2, 3, 2};
  static const int64_t too_big[] = {2, 3, 3};
  static const int64_t negative[] = {-1, 3, 2};
  static const int64_t huge[] = {(int64_t)1 << 40, (int64_t)1 << 40, 0};
  static const int64_t seven[] = {1, 1, 1, 1, 1, 1, 1};
  uint64_t handle;
  size_t size;
  SetupSession();
  handle = Alloc(12);
  PutU64(body + 1, GetGlobal("test.fill"));
  body[9] = 1;
  size = 10 + PutTensorArgument(body + 10, handle, 3, fits);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(body, size));
  CRT_EXPECT_EQ_INT(kTVMNullptr, Results()[0]);
  PutU64(from + 1, handle);
  PutU32(from + 9, 0);
  PutU32(from + 13, 12);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Call(from, sizeof(from)));
  CRT_EXPECT_EQ_INT(10, Results()[0]);
  CRT_EXPECT_EQ_INT(21, Results()[11]);
  CRT_EXPECT_EQ_INT(1, calls);
  size = 10 + PutTensorArgument(body + 10, handle, 3, too_big);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, size));
  size = 10 + PutTensorArgument(body + 10, handle, 3, negative);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, size));
  size = 10 + PutTensorArgument(body + 10, handle, 2, huge);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, size));
  size = 10 + PutTensorArgument(body + 10, handle, 7, seven);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, size));
  size = 10 + PutTensorArgument(body + 10, handle + 1, 3, fits);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, size));
  /* Zero bits per element is no type at all. */
  size = 10 + PutTensorArgument(body + 10, handle, 3, fits);
  body[21] = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, Call(body, size));
  /* Shape cut short. */
  body[21] = 8;
  CRT_EXPECT_EQ_INT(kTvmErrorRpcMalformedRequest, Call(body, size - 1));
  CRT_EXPECT_EQ_INT(1, calls);
}

/* ---- A debug build's model: its tensors go to the host during RUN. ---- */

static int32_t RunDebugModel(void) {
  size_t i;
  for (i = 0; i < OUTPUT_BYTES; ++i) output0[i] = (uint8_t)(input0[i] + 1);
  fake_now += 100;
  TVMProfilerOperatorDone(0);
  TVMDebugTensor(0, 5, output0, OUTPUT_BYTES);
  for (i = 0; i < BIG_OUTPUT_BYTES; ++i) output1[i] = (uint8_t)(i * 3);
  /* Sending takes time too: no operator's. */
  fake_now += 30;
  TVMProfilerSkip();
  fake_now += 50;
  TVMProfilerOperatorDone(1);
  TVMDebugTensor(1, 9, output1, BIG_OUTPUT_BYTES);
  TVMDebugTensor(1, 10, NULL, 0);
  return 0;
}

static const TVMModelDescriptor debug_model = {"debug",
                                               1,
                                               2,
                                               model_inputs,
                                               model_input_bytes,
                                               model_outputs,
                                               model_output_bytes,
                                               2 /* operators */,
                                               64 /* workspace */,
                                               0 /* state */,
                                               RunDebugModel,
                                               NULL};

static void ExpectTensorMessage(size_t m, uint8_t seq, uint32_t op, uint32_t tensor,
                                uint32_t offset, uint32_t total, const uint8_t* data, size_t size) {
  CRT_EXPECT_EQ_INT(kTvmSessionTensor, messages[m][0]);
  CRT_EXPECT_EQ_INT(host_nonce, messages[m][1]);
  CRT_EXPECT_EQ_INT(board_nonce, messages[m][2]);
  CRT_EXPECT_EQ_INT(seq, messages[m][3]);
  CRT_EXPECT_EQ_INT(4 + TVM_SESSION_TENSOR_HEADER_BYTES + size, message_sizes[m]);
  CRT_EXPECT_EQ_INT(op, U32At(messages[m] + 4));
  CRT_EXPECT_EQ_INT(tensor, U32At(messages[m] + 8));
  CRT_EXPECT_EQ_INT(offset, U32At(messages[m] + 12));
  CRT_EXPECT_EQ_INT(total, U32At(messages[m] + 16));
  CRT_EXPECT(size == 0 || memcmp(messages[m] + 20, data, size) == 0);
}

static void test_a_debug_run_sends_each_tensor_in_chunks_before_its_response(void) {
  static const uint8_t run[] = {kTvmRpcRun};
  uint8_t profile[9] = {kTvmRpcGetProfile};
  Setup(&debug_model);
  StartSession(0x21);
  SendHeaderAndBody(kTvmSessionRequest, host_nonce, board_nonce, 7, run, sizeof(run));
  /* 8 bytes in one message, 1500 in 512 + 512 + 476, an empty tensor in one, then RUN's answer. */
  CRT_EXPECT_EQ_INT(6, message_count);
  ExpectTensorMessage(0, 7, 0, 5, 0, OUTPUT_BYTES, output0, OUTPUT_BYTES);
  ExpectTensorMessage(1, 7, 1, 9, 0, BIG_OUTPUT_BYTES, output1, TVM_SESSION_TENSOR_CHUNK_BYTES);
  ExpectTensorMessage(2, 7, 1, 9, 512, BIG_OUTPUT_BYTES, output1 + 512, 512);
  ExpectTensorMessage(3, 7, 1, 9, 1024, BIG_OUTPUT_BYTES, output1 + 1024, 476);
  ExpectTensorMessage(4, 7, 1, 10, 0, 0, NULL, 0);
  CRT_EXPECT_EQ_INT(kTvmSessionResponse, messages[5][0]);
  CRT_EXPECT_EQ_INT(kTvmRpcRun, messages[5][4]);
  /* Operator 1 is charged its 50 ticks, not the 30 spent sending. */
  PutU32(profile + 1, 0);
  PutU32(profile + 5, 2);
  Request(8, profile, sizeof(profile));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
  CRT_EXPECT_EQ_INT(100, U64At(Results() + 8 + 4));
  CRT_EXPECT_EQ_INT(50, U64At(Results() + 8 + 12 + 4));
  /* Outside a RUN the hook sends nothing, and the session refuses a tensor. */
  TVMDebugTensor(0, 5, output0, OUTPUT_BYTES);
  CRT_EXPECT_EQ_INT(0, wire_size);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument,
                    TVMSession_SendTensor(&server.session, 0, 5, output0, OUTPUT_BYTES));
}

static void test_a_retransmitted_call_is_not_called_twice(void) {
  uint8_t body[32] = {kTvmRpcCallFunc};
  SetupSession();
  PutU64(body + 1, GetGlobal("test.sum"));
  body[9] = 1;
  PutIntArgument(body + 10, 9);
  Request(100, body, 19);
  Request(100, body, 19);
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, Status());
  CRT_EXPECT_EQ_INT(9, (int64_t)U64At(Results() + 1));
  CRT_EXPECT_EQ_INT(1, calls);
}

int main(void) {
  CRT_RUN(test_boot_is_sent_once_with_version_and_board_name);
  CRT_RUN(test_start_is_answered_with_started_and_a_new_board_nonce);
  CRT_RUN(test_a_request_before_start_is_nakked_no_session);
  CRT_RUN(test_requests_with_stale_nonces_are_dropped);
  CRT_RUN(test_malformed_messages_are_nakked);
  CRT_RUN(test_dropped_frames_are_nakked_with_their_framing_reason);
  CRT_RUN(test_log_messages_carry_the_sessions_nonces_or_none);
  CRT_RUN(test_model_info_describes_the_descriptor);
  CRT_RUN(test_set_input_run_and_get_output);
  CRT_RUN(test_a_long_output_comes_back_in_pieces_of_max_request_minus_16);
  CRT_RUN(test_model_ranges_are_checked);
  CRT_RUN(test_a_retransmitted_run_is_answered_without_running_again);
  CRT_RUN(test_get_profile_reads_the_last_runs_operators);
  CRT_RUN(test_reset_state_is_done_once_per_request);
  CRT_RUN(test_model_opcodes_fail_without_a_model);
  CRT_RUN(test_an_unknown_opcode_is_an_error_response);
  CRT_RUN(test_alloc_copy_and_free);
  CRT_RUN(test_alloc_refuses_zero_bytes_and_a_full_table);
  CRT_RUN(test_a_retransmitted_alloc_hands_out_one_block);
  CRT_RUN(test_a_new_start_releases_the_previous_sessions_memory);
  CRT_RUN(test_get_global_func_finds_registered_functions_only);
  CRT_RUN(test_call_func_passes_scalars_and_returns_the_result);
  CRT_RUN(test_call_func_refuses_bad_requests);
  CRT_RUN(test_call_func_builds_tensors_inside_allocations_only);
  CRT_RUN(test_a_retransmitted_call_is_not_called_twice);
  CRT_RUN(test_a_debug_run_sends_each_tensor_in_chunks_before_its_response);
  return crt_test_exit_code();
}
