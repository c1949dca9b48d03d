/*
 * Serial framing for the board: turns messages into frames on a byte stream and
 * back, following docs/serial_framing.md (start marker 0x7E, escape 0x7D with
 * XOR 0x20, 16-bit little-endian length, CRC-16-CCITT over length and payload).
 *
 * The encoder writes a frame one byte at a time through a callback, so any UART
 * driver (polled, interrupt or DMA queue) can be plugged in. The decoder is fed
 * one byte at a time, e.g. from a receive interrupt, into a fixed buffer the
 * caller owns; each byte returns at most one event. No malloc, no stdio.
 */
#ifndef TVM_RUNTIME_CRT_FRAMING_H_
#define TVM_RUNTIME_CRT_FRAMING_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/runtime/crt/error_codes.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TVM_FRAME_START_MARKER ((uint8_t)0x7E)
#define TVM_FRAME_ESCAPE ((uint8_t)0x7D)
#define TVM_FRAME_ESCAPE_XOR ((uint8_t)0x20)
#define TVM_FRAME_CRC_INITIAL ((uint16_t)0xFFFFu)
#define TVM_FRAME_CRC_POLYNOMIAL ((uint16_t)0x1021u)
/*! \brief The length field is 16 bits. */
#define TVM_FRAME_MAX_PAYLOAD ((size_t)0xFFFFu)

/*!
 * \brief Continue a CRC-16-CCITT (polynomial 0x1021, MSB first, no reflection,
 * no final XOR) over size bytes. Start from TVM_FRAME_CRC_INITIAL.
 */
uint16_t TVMFrameCrc16(uint16_t crc, const uint8_t* data, size_t size);

/*!
 * \brief Writes one byte to the link. Returns kTvmErrorNoError or an error the
 * encoder stops at and passes back.
 */
typedef tvm_crt_error_t (*TVMFrameByteWriter)(void* context, uint8_t byte);

/*!
 * \brief Write payload (size bytes, at most TVM_FRAME_MAX_PAYLOAD) as one frame.
 * kTvmErrorInvalidArgument if it is too long, write is NULL or payload is NULL
 * with size > 0 (nothing is written then), else the first error of the writer,
 * else kTvmErrorNoError.
 */
tvm_crt_error_t TVMFrameEncode(const uint8_t* payload, size_t size, TVMFrameByteWriter write,
                               void* context);

/*!
 * \brief A frame being written piece by piece, for a sender that produces its
 * payload as it goes (e.g. a response streamed from the model's output
 * buffer) and so never holds it whole. The payload size must be known up
 * front: the length field comes first. Fields are private (framing.c).
 */
typedef struct TVMFrameEncoder {
  TVMFrameByteWriter write; /*!< the link */
  void* context;            /*!< passed to write */
  size_t remaining;         /*!< payload bytes still to come */
  uint16_t crc;             /*!< running CRC of the length and payload so far */
  tvm_crt_error_t error;    /*!< the first error; every later call returns it */
} TVMFrameEncoder;

/*!
 * \brief Write the start marker and length of a frame of payload_size bytes.
 * kTvmErrorInvalidArgument (nothing written) if write is NULL or payload_size
 * exceeds TVM_FRAME_MAX_PAYLOAD, else the writer's first error.
 */
tvm_crt_error_t TVMFrameEncoder_Begin(TVMFrameEncoder* encoder, size_t payload_size,
                                      TVMFrameByteWriter write, void* context);

/*!
 * \brief Write the next size payload bytes. kTvmErrorInvalidArgument if they
 * would exceed the size given to Begin (nothing written); errors are sticky:
 * after one, nothing more is written and every call returns it.
 */
tvm_crt_error_t TVMFrameEncoder_Write(TVMFrameEncoder* encoder, const uint8_t* data, size_t size);

/*!
 * \brief Write the CRC. kTvmErrorInvalidArgument if fewer payload bytes than
 * announced were written (no CRC is written: the receiver sees the frame
 * truncated by the next start marker), else the first error of the frame.
 */
tvm_crt_error_t TVMFrameEncoder_End(TVMFrameEncoder* encoder);

/*! \brief What one byte fed to the decoder completed, if anything. */
typedef enum {
  kTvmFrameNone = 0,       /*!< nothing yet */
  kTvmFrameComplete,       /*!< buffer holds a checked payload of decoder->length bytes */
  kTvmFrameCrcMismatch,    /*!< a whole frame arrived but its CRC is wrong: dropped */
  kTvmFrameTooLong,        /*!< its length exceeds the buffer: skipped to the next marker */
  kTvmFrameBadEscape,      /*!< an escape followed by a byte no encoder sends: skipped */
  kTvmFrameTruncated,      /*!< a start marker arrived inside a frame: dropped, new frame */
  kTvmFrameGarbageSkipped, /*!< a start marker ended decoder->skipped bytes outside frames */
} TVMFrameEvent;

/*! \brief Decoder state; fields are read-only for the caller. */
typedef struct TVMFrameDecoder {
  uint8_t* buffer;        /*!< the caller's receive buffer */
  size_t capacity;        /*!< its size: the longest payload accepted */
  size_t length;          /*!< payload length of the frame being read or just completed */
  size_t received;        /*!< payload bytes of it received so far */
  size_t skipped;         /*!< garbage bytes in the current (or just reported) run */
  uint16_t crc;           /*!< running CRC of the unescaped length and payload */
  uint16_t frame_crc;     /*!< the CRC field as it arrives */
  uint8_t state;          /*!< where in a frame the next byte belongs (framing.c) */
  uint8_t escape_pending; /*!< the previous byte was TVM_FRAME_ESCAPE */
} TVMFrameDecoder;

/*!
 * \brief Start decoding into buffer (capacity bytes, may be 0 for empty
 * payloads only). Everything before the first start marker is garbage.
 */
void TVMFrameDecoder_Init(TVMFrameDecoder* decoder, uint8_t* buffer, size_t capacity);

/*!
 * \brief Feed one received byte. On kTvmFrameComplete the payload stays in the
 * buffer until the next byte is fed.
 */
TVMFrameEvent TVMFrameDecoder_Feed(TVMFrameDecoder* decoder, uint8_t byte);

#ifdef __cplusplus
}
#endif

#endif /* TVM_RUNTIME_CRT_FRAMING_H_ */
