/*
 * The board's side of the session layer (docs/session_rpc.md): every frame
 * payload is a 4-byte header (type, host nonce, board nonce, sequence) and a
 * body. The session answers START with STARTED, drops messages of other
 * sessions, NAKs frames the framing layer dropped, recognises retransmitted
 * requests by their sequence number, and hands each new request body to a
 * handler, which answers it with exactly one response written straight to
 * the link (TVMSession_BeginResponse / WriteResponse / EndResponse).
 *
 * Fed one received byte at a time. The handler runs inside TVMSession_Feed,
 * so feed from the main loop (an ISR should only queue bytes). No malloc, no
 * stdio: the receive buffer is part of the struct, sized by
 * TVM_CRT_RPC_RECEIVE_BUFFER_BYTES.
 */
#ifndef TVM_RUNTIME_CRT_SESSION_H_
#define TVM_RUNTIME_CRT_SESSION_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/framing.h>

#include "crt_config.h"

#ifdef __cplusplus
extern "C" {
#endif

#if TVM_CRT_RPC_RECEIVE_BUFFER_BYTES < 64 || TVM_CRT_RPC_RECEIVE_BUFFER_BYTES > 65535
#error "TVM_CRT_RPC_RECEIVE_BUFFER_BYTES must be 64..65535 (max request is a u16)"
#endif

#define TVM_SESSION_PROTOCOL_VERSION 1
#define TVM_SESSION_HEADER_BYTES 4
/*! Responses up to this many body bytes are kept for a retransmission. */
#define TVM_SESSION_KEPT_RESPONSE_BYTES 24

typedef enum {
  kTvmSessionBoot = 0x01,
  kTvmSessionStart = 0x02,
  kTvmSessionStarted = 0x03,
  kTvmSessionRequest = 0x04,
  kTvmSessionResponse = 0x05,
  kTvmSessionLog = 0x06,
  kTvmSessionNak = 0x07,
  kTvmSessionTensor = 0x08
} TVMSessionMessageType;

/*! A TENSOR message's body: operator u32, tensor u32, offset u32, total
 * bytes u32, then at most this many bytes of the tensor from offset. */
#define TVM_SESSION_TENSOR_HEADER_BYTES 16
#define TVM_SESSION_TENSOR_CHUNK_BYTES 512

/*! NAK reasons: the framing events of framing.h, then the session's own. */
typedef enum {
  kTvmSessionNakCrcMismatch = kTvmFrameCrcMismatch, /* 2 */
  kTvmSessionNakTooLong = kTvmFrameTooLong,         /* 3 */
  kTvmSessionNakBadEscape = kTvmFrameBadEscape,     /* 4 */
  kTvmSessionNakTruncated = kTvmFrameTruncated,     /* 5 */
  kTvmSessionNakMalformed = 0x10, /*!< shorter than its header, unknown type, bad version */
  kTvmSessionNakNoSession = 0x11  /*!< a REQUEST before any START */
} TVMSessionNakReason;

struct TVMSession;

/*!
 * \brief Handles one REQUEST body (at least one byte) of the current session.
 * It must answer with exactly one response (Begin, Write..., End) before it
 * returns; body stays valid until then. is_retransmission is 1 when the
 * request repeats the sequence number of the previous one.
 */
typedef void (*TVMSessionRequestHandler)(void* context, struct TVMSession* session,
                                         const uint8_t* body, size_t size, int is_retransmission);

/*! \brief Session state; fields are private (session.c). */
typedef struct TVMSession {
  TVMFrameDecoder decoder;
  TVMFrameEncoder encoder;
  TVMFrameByteWriter write;
  void* write_context;
  TVMSessionRequestHandler handler;
  void* handler_context;
  void (*on_start)(void* handler_context);
  const char* board_name;
  uint32_t tick_rate;
  uint8_t host_nonce;    /* 0: no session */
  uint8_t board_nonce;   /* of the current (or, with no session, the last) session */
  uint8_t last_sequence; /* of the last request handled; 0: none yet */
  uint8_t handling;      /* inside the handler: a response may be written */
  uint8_t responding;    /* between BeginResponse and EndResponse */
  uint8_t kept_valid;    /* kept_response holds the last response */
  uint8_t kept_size;     /* its body bytes */
  uint8_t kept_response[TVM_SESSION_KEPT_RESPONSE_BYTES];
  size_t response_remaining;   /* body bytes of the response still to write */
  size_t response_written;     /* body bytes of it written so far */
  tvm_crt_error_t write_error; /* first writer error of the byte being fed */
  uint8_t receive_buffer[TVM_CRT_RPC_RECEIVE_BUFFER_BYTES];
} TVMSession;

/*!
 * \brief Set up a session with no host yet. board_name (ASCII, NUL-terminated,
 * kept by pointer) goes into BOOT and STARTED, tick_rate (Hz, 0: no profiler
 * clock) into STARTED. Sends nothing; see TVMSession_SendBoot.
 */
void TVMSession_Init(TVMSession* session, const char* board_name, uint32_t tick_rate,
                     TVMSessionRequestHandler handler, void* handler_context,
                     TVMFrameByteWriter write, void* write_context);

/*!
 * \brief Call on_start(handler_context) whenever a START opens a new session,
 * before STARTED is sent: what the previous session left (device memory) can
 * be released there. NULL: nothing to do.
 */
void TVMSession_SetStartCallback(TVMSession* session, void (*on_start)(void* handler_context));

/*! \brief Send BOOT, once, when the board has started. Returns the writer's error. */
tvm_crt_error_t TVMSession_SendBoot(TVMSession* session);

/*!
 * \brief Feed one received byte; runs the handler when it completes a new
 * request. Returns the first error of the writer for anything sent meanwhile.
 */
tvm_crt_error_t TVMSession_Feed(TVMSession* session, uint8_t byte);

/*!
 * \brief Start the response to the request being handled, body_size bytes
 * long (the header is added here). kTvmErrorInvalidArgument outside the
 * handler, for a second response, or if the body would not fit in a frame.
 */
tvm_crt_error_t TVMSession_BeginResponse(TVMSession* session, size_t body_size);

/*! \brief Write the next body bytes of the response (no more than announced). */
tvm_crt_error_t TVMSession_WriteResponse(TVMSession* session, const uint8_t* data, size_t size);

/*! \brief Finish the response; kTvmErrorInvalidArgument if bytes are missing. */
tvm_crt_error_t TVMSession_EndResponse(TVMSession* session);

/*!
 * \brief In the handler of a retransmission: send again the previous response
 * if it was kept (body of at most TVM_SESSION_KEPT_RESPONSE_BYTES) and its
 * first byte is first_byte. Returns 1 when it was resent, 0 when the request
 * must be handled again.
 */
int TVMSession_ResendResponse(TVMSession* session, uint8_t first_byte);

/*!
 * \brief Send size bytes of text as a LOG message (with the session's nonces,
 * or 0, 0 without a session). Not between BeginResponse and EndResponse
 * (kTvmErrorInvalidArgument); text longer than a frame is cut.
 */
tvm_crt_error_t TVMSession_Log(TVMSession* session, const char* text, size_t size);

/*!
 * \brief While a request is handled (a debug build's RUN), before its
 * response: send size bytes of tensor tensor_index, which operator
 * operator_index just wrote, as TENSOR messages of at most
 * TVM_SESSION_TENSOR_CHUNK_BYTES each, straight from data (nothing is
 * copied). kTvmErrorInvalidArgument outside a request or during its response.
 */
tvm_crt_error_t TVMSession_SendTensor(TVMSession* session, uint32_t operator_index,
                                      uint32_t tensor_index, const uint8_t* data, uint32_t size);

/*! \brief 1 while a host's session is open (after START). */
int TVMSession_IsOpen(const TVMSession* session);

#ifdef __cplusplus
}
#endif

#endif /* TVM_RUNTIME_CRT_SESSION_H_ */
