/*
 * The board's session layer (session.h, docs/session_rpc.md): handshake,
 * nonce and sequence checks, NAKs, and responses streamed straight into a
 * frame, so nothing larger than the receive buffer is ever held.
 */
#include <loupe/little_endian.h>
#include <tvm/runtime/crt/session.h>

static size_t TextLength(const char* text) {
  size_t size = 0;
  if (text == NULL) return 0;
  while (text[size] != '\0') ++size;
  return size;
}

/* The longest body a frame can carry after the header. */
#define MAX_BODY_BYTES (TVM_FRAME_MAX_PAYLOAD - TVM_SESSION_HEADER_BYTES)

static void NoteError(TVMSession* session, tvm_crt_error_t err) {
  if (session->write_error == kTvmErrorNoError) session->write_error = err;
}

/* One whole message: header, then the body in two parts (either may be empty). */
static tvm_crt_error_t SendMessage(TVMSession* session, uint8_t type, uint8_t host_nonce,
                                   uint8_t board_nonce, uint8_t sequence, const uint8_t* head,
                                   size_t head_size, const uint8_t* tail, size_t tail_size) {
  uint8_t header[TVM_SESSION_HEADER_BYTES];
  tvm_crt_error_t err;
  header[0] = type;
  header[1] = host_nonce;
  header[2] = board_nonce;
  header[3] = sequence;
  TVMFrameEncoder_Begin(&session->encoder, sizeof(header) + head_size + tail_size, session->write,
                        session->write_context);
  TVMFrameEncoder_Write(&session->encoder, header, sizeof(header));
  TVMFrameEncoder_Write(&session->encoder, head, head_size);
  TVMFrameEncoder_Write(&session->encoder, tail, tail_size);
  err = TVMFrameEncoder_End(&session->encoder);
  NoteError(session, err);
  return err;
}

/* NAKs and LOGs carry the session's nonces, or none without a session. */
static uint8_t CurrentHostNonce(const TVMSession* session) {
  return session->host_nonce;
}

static uint8_t CurrentBoardNonce(const TVMSession* session) {
  return session->host_nonce != 0 ? session->board_nonce : 0;
}

static tvm_crt_error_t SendNak(TVMSession* session, uint8_t reason) {
  return SendMessage(session, kTvmSessionNak, CurrentHostNonce(session), CurrentBoardNonce(session),
                     0, &reason, 1, NULL, 0);
}

void TVMSession_Init(TVMSession* session, const char* board_name, uint32_t tick_rate,
                     TVMSessionRequestHandler handler, void* handler_context,
                     TVMFrameByteWriter write, void* write_context) {
  TVMFrameDecoder_Init(&session->decoder, session->receive_buffer, sizeof(session->receive_buffer));
  session->write = write;
  session->write_context = write_context;
  session->handler = handler;
  session->handler_context = handler_context;
  session->on_start = NULL;
  session->board_name = board_name;
  session->tick_rate = tick_rate;
  session->host_nonce = 0;
  session->board_nonce = 0;
  session->last_sequence = 0;
  session->handling = 0;
  session->responding = 0;
  session->kept_valid = 0;
  session->kept_size = 0;
  session->response_remaining = 0;
  session->response_written = 0;
  session->write_error = kTvmErrorNoError;
}

void TVMSession_SetStartCallback(TVMSession* session, void (*on_start)(void* handler_context)) {
  session->on_start = on_start;
}

static size_t BoardNameLength(const TVMSession* session, size_t room) {
  size_t size = TextLength(session->board_name);
  return size < room ? size : room;
}

tvm_crt_error_t TVMSession_SendBoot(TVMSession* session) {
  const uint8_t version = TVM_SESSION_PROTOCOL_VERSION;
  return SendMessage(session, kTvmSessionBoot, 0, 0, 0, &version, 1,
                     (const uint8_t*)session->board_name,
                     BoardNameLength(session, MAX_BODY_BYTES - 1));
}

/* START: whatever session there was ends; a new one with a new board nonce begins. */
static tvm_crt_error_t Start(TVMSession* session, const uint8_t* message, size_t size) {
  uint8_t started[7];
  const uint32_t max_request = TVM_CRT_RPC_RECEIVE_BUFFER_BYTES;
  if (size < TVM_SESSION_HEADER_BYTES + 1 || message[1] == 0 ||
      message[4] != TVM_SESSION_PROTOCOL_VERSION) {
    return SendNak(session, kTvmSessionNakMalformed);
  }
  session->host_nonce = message[1];
  /* A counter that skips 0 differs from the previous session's nonce. */
  session->board_nonce = (uint8_t)(session->board_nonce == 255 ? 1 : session->board_nonce + 1);
  session->last_sequence = 0;
  session->kept_valid = 0;
  if (session->on_start != NULL) session->on_start(session->handler_context);
  started[0] = TVM_SESSION_PROTOCOL_VERSION;
  started[1] = (uint8_t)(max_request & 0xFFu);
  started[2] = (uint8_t)(max_request >> 8);
  started[3] = (uint8_t)(session->tick_rate & 0xFFu);
  started[4] = (uint8_t)((session->tick_rate >> 8) & 0xFFu);
  started[5] = (uint8_t)((session->tick_rate >> 16) & 0xFFu);
  started[6] = (uint8_t)(session->tick_rate >> 24);
  return SendMessage(session, kTvmSessionStarted, session->host_nonce, session->board_nonce, 0,
                     started, sizeof(started), (const uint8_t*)session->board_name,
                     BoardNameLength(session, MAX_BODY_BYTES - sizeof(started)));
}

static void Request(TVMSession* session, const uint8_t* message, size_t size) {
  uint8_t sequence = message[3];
  int is_retransmission;
  if (session->host_nonce == 0) {
    SendNak(session, kTvmSessionNakNoSession);
    return;
  }
  if (message[1] != session->host_nonce || message[2] != session->board_nonce) {
    return; /* a stale request of an earlier session */
  }
  if (sequence == 0 || size == TVM_SESSION_HEADER_BYTES) {
    SendNak(session, kTvmSessionNakMalformed);
    return;
  }
  is_retransmission = sequence == session->last_sequence;
  session->last_sequence = sequence;
  session->handling = 1;
  session->responding = 0;
  session->handler(session->handler_context, session, message + TVM_SESSION_HEADER_BYTES,
                   size - TVM_SESSION_HEADER_BYTES, is_retransmission);
  /* A handler that left its response unfinished leaves a frame the next
   * start marker truncates; the host retries. */
  session->handling = 0;
  session->responding = 0;
}

static void HandleMessage(TVMSession* session, const uint8_t* message, size_t size) {
  if (size < TVM_SESSION_HEADER_BYTES) {
    SendNak(session, kTvmSessionNakMalformed);
    return;
  }
  switch (message[0]) {
    case kTvmSessionStart:
      Start(session, message, size);
      return;
    case kTvmSessionRequest:
      Request(session, message, size);
      return;
    case kTvmSessionBoot:
    case kTvmSessionStarted:
    case kTvmSessionResponse:
    case kTvmSessionLog:
    case kTvmSessionNak:
    case kTvmSessionTensor:
      /* The board's own kinds of message (an echoing link): never answered,
       * or two boards would NAK each other forever. */
      return;
    default:
      SendNak(session, kTvmSessionNakMalformed);
      return;
  }
}

tvm_crt_error_t TVMSession_Feed(TVMSession* session, uint8_t byte) {
  TVMFrameEvent event = TVMFrameDecoder_Feed(&session->decoder, byte);
  session->write_error = kTvmErrorNoError;
  switch (event) {
    case kTvmFrameComplete:
      HandleMessage(session, session->decoder.buffer, session->decoder.length);
      break;
    case kTvmFrameCrcMismatch:
    case kTvmFrameTooLong:
    case kTvmFrameBadEscape:
    case kTvmFrameTruncated:
      SendNak(session, (uint8_t)event);
      break;
    default: /* nothing yet, or a garbage run: no NAK */
      break;
  }
  return session->write_error;
}

tvm_crt_error_t TVMSession_BeginResponse(TVMSession* session, size_t body_size) {
  uint8_t header[TVM_SESSION_HEADER_BYTES];
  tvm_crt_error_t err;
  if (!session->handling || session->responding || body_size > MAX_BODY_BYTES) {
    return kTvmErrorInvalidArgument;
  }
  session->responding = 1;
  session->response_remaining = body_size;
  session->response_written = 0;
  session->kept_valid = 0;
  session->kept_size = (uint8_t)(body_size <= TVM_SESSION_KEPT_RESPONSE_BYTES ? body_size : 0);
  header[0] = kTvmSessionResponse;
  header[1] = session->host_nonce;
  header[2] = session->board_nonce;
  header[3] = session->last_sequence;
  TVMFrameEncoder_Begin(&session->encoder, sizeof(header) + body_size, session->write,
                        session->write_context);
  err = TVMFrameEncoder_Write(&session->encoder, header, sizeof(header));
  NoteError(session, err);
  return err;
}

tvm_crt_error_t TVMSession_WriteResponse(TVMSession* session, const uint8_t* data, size_t size) {
  size_t i;
  tvm_crt_error_t err;
  if (!session->responding || size > session->response_remaining || (data == NULL && size > 0)) {
    return kTvmErrorInvalidArgument;
  }
  /* Kept before writing: even if the link fails, a retransmission must get
   * this answer rather than the work done twice. */
  for (i = 0; i < size && session->response_written + i < session->kept_size; ++i) {
    session->kept_response[session->response_written + i] = data[i];
  }
  session->response_remaining -= size;
  session->response_written += size;
  err = TVMFrameEncoder_Write(&session->encoder, data, size);
  NoteError(session, err);
  return err;
}

tvm_crt_error_t TVMSession_EndResponse(TVMSession* session) {
  tvm_crt_error_t err;
  if (!session->responding || session->response_remaining != 0) {
    return kTvmErrorInvalidArgument;
  }
  session->responding = 0;
  session->handling = 0;
  session->kept_valid = session->response_written <= TVM_SESSION_KEPT_RESPONSE_BYTES;
  err = TVMFrameEncoder_End(&session->encoder);
  NoteError(session, err);
  return err;
}

int TVMSession_ResendResponse(TVMSession* session, uint8_t first_byte) {
  if (!session->handling || session->responding || !session->kept_valid ||
      session->kept_size == 0 || session->kept_response[0] != first_byte) {
    return 0;
  }
  SendMessage(session, kTvmSessionResponse, session->host_nonce, session->board_nonce,
              session->last_sequence, session->kept_response, session->kept_size, NULL, 0);
  session->handling = 0;
  return 1;
}

tvm_crt_error_t TVMSession_Log(TVMSession* session, const char* text, size_t size) {
  if (session->responding || (text == NULL && size > 0)) return kTvmErrorInvalidArgument;
  if (size > MAX_BODY_BYTES) size = MAX_BODY_BYTES;
  return SendMessage(session, kTvmSessionLog, CurrentHostNonce(session), CurrentBoardNonce(session),
                     0, (const uint8_t*)text, size, NULL, 0);
}

tvm_crt_error_t TVMSession_SendTensor(TVMSession* session, uint32_t operator_index,
                                      uint32_t tensor_index, const uint8_t* data, uint32_t size) {
  uint8_t head[TVM_SESSION_TENSOR_HEADER_BYTES];
  uint32_t offset = 0;
  tvm_crt_error_t err = kTvmErrorNoError;
  if (!session->handling || session->responding || (data == NULL && size > 0)) {
    return kTvmErrorInvalidArgument;
  }
  loupe_put_le_u32(head, operator_index);
  loupe_put_le_u32(head + 4, tensor_index);
  loupe_put_le_u32(head + 12, size);
  /* An empty tensor still sends one message: the host learns it was written. */
  do {
    uint32_t chunk = size - offset;
    if (chunk > TVM_SESSION_TENSOR_CHUNK_BYTES) chunk = TVM_SESSION_TENSOR_CHUNK_BYTES;
    loupe_put_le_u32(head + 8, offset);
    /* The sequence of the request under way: a stale chunk is told apart. */
    err = SendMessage(session, kTvmSessionTensor, session->host_nonce, session->board_nonce,
                      session->last_sequence, head, sizeof(head),
                      data == NULL ? NULL : data + offset, chunk);
    offset += chunk;
  } while (err == kTvmErrorNoError && offset < size);
  return err;
}

int TVMSession_IsOpen(const TVMSession* session) {
  return session->host_nonce != 0;
}
