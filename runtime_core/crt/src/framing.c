/*
 * Serial framing (docs/serial_framing.md): the encoder and the byte-at-a-time
 * decoder of the board. The CRC is computed bit by bit rather than from a
 * 512-byte table: flash matters more than speed at UART rates.
 */
#include <tvm/runtime/crt/framing.h>

/* Decoder states: where the next unescaped byte belongs. */
enum {
  kStateHunting = 0, /* outside a frame: bytes are garbage */
  kStateDiscarding,  /* inside a frame already reported: skip quietly to the next marker */
  kStateLengthLow,
  kStateLengthHigh,
  kStatePayload,
  kStateCrcLow,
  kStateCrcHigh
};

static uint16_t CrcUpdate(uint16_t crc, uint8_t byte) {
  int bit;
  crc = (uint16_t)(crc ^ ((uint16_t)byte << 8));
  for (bit = 0; bit < 8; ++bit) {
    if (crc & 0x8000u) {
      crc = (uint16_t)((uint16_t)(crc << 1) ^ TVM_FRAME_CRC_POLYNOMIAL);
    } else {
      crc = (uint16_t)(crc << 1);
    }
  }
  return crc;
}

uint16_t TVMFrameCrc16(uint16_t crc, const uint8_t* data, size_t size) {
  size_t i;
  for (i = 0; i < size; ++i) {
    crc = CrcUpdate(crc, data[i]);
  }
  return crc;
}

static tvm_crt_error_t WriteEscaped(uint8_t byte, TVMFrameByteWriter write, void* context) {
  if (byte == TVM_FRAME_START_MARKER || byte == TVM_FRAME_ESCAPE) {
    tvm_crt_error_t err = write(context, TVM_FRAME_ESCAPE);
    if (err != kTvmErrorNoError) {
      return err;
    }
    byte = (uint8_t)(byte ^ TVM_FRAME_ESCAPE_XOR);
  }
  return write(context, byte);
}

tvm_crt_error_t TVMFrameEncoder_Begin(TVMFrameEncoder* encoder, size_t payload_size,
                                      TVMFrameByteWriter write, void* context) {
  uint8_t length[2];
  size_t i;
  encoder->write = write;
  encoder->context = context;
  encoder->remaining = payload_size;
  encoder->crc = TVM_FRAME_CRC_INITIAL;
  if (payload_size > TVM_FRAME_MAX_PAYLOAD || write == NULL) {
    encoder->error = kTvmErrorInvalidArgument;
    return encoder->error;
  }
  length[0] = (uint8_t)(payload_size & 0xFFu);
  length[1] = (uint8_t)((payload_size >> 8) & 0xFFu);
  encoder->crc = TVMFrameCrc16(encoder->crc, length, sizeof(length));
  encoder->error = write(context, TVM_FRAME_START_MARKER);
  for (i = 0; encoder->error == kTvmErrorNoError && i < sizeof(length); ++i) {
    encoder->error = WriteEscaped(length[i], write, context);
  }
  return encoder->error;
}

tvm_crt_error_t TVMFrameEncoder_Write(TVMFrameEncoder* encoder, const uint8_t* data, size_t size) {
  size_t i;
  if (encoder->error != kTvmErrorNoError) {
    return encoder->error;
  }
  if (size > encoder->remaining || (data == NULL && size > 0)) {
    encoder->error = kTvmErrorInvalidArgument;
    return encoder->error;
  }
  encoder->remaining -= size;
  for (i = 0; encoder->error == kTvmErrorNoError && i < size; ++i) {
    encoder->crc = CrcUpdate(encoder->crc, data[i]);
    encoder->error = WriteEscaped(data[i], encoder->write, encoder->context);
  }
  return encoder->error;
}

tvm_crt_error_t TVMFrameEncoder_End(TVMFrameEncoder* encoder) {
  if (encoder->error != kTvmErrorNoError) {
    return encoder->error;
  }
  if (encoder->remaining != 0) {
    encoder->error = kTvmErrorInvalidArgument;
    return encoder->error;
  }
  encoder->error = WriteEscaped((uint8_t)(encoder->crc & 0xFFu), encoder->write, encoder->context);
  if (encoder->error == kTvmErrorNoError) {
    encoder->error = WriteEscaped((uint8_t)(encoder->crc >> 8), encoder->write, encoder->context);
  }
  return encoder->error;
}

tvm_crt_error_t TVMFrameEncode(const uint8_t* payload, size_t size, TVMFrameByteWriter write,
                               void* context) {
  TVMFrameEncoder encoder;
  if (size > TVM_FRAME_MAX_PAYLOAD || write == NULL || (payload == NULL && size > 0)) {
    return kTvmErrorInvalidArgument;
  }
  TVMFrameEncoder_Begin(&encoder, size, write, context);
  TVMFrameEncoder_Write(&encoder, payload, size);
  return TVMFrameEncoder_End(&encoder);
}

void TVMFrameDecoder_Init(TVMFrameDecoder* decoder, uint8_t* buffer, size_t capacity) {
  decoder->buffer = buffer;
  decoder->capacity = capacity;
  decoder->length = 0;
  decoder->received = 0;
  decoder->skipped = 0;
  decoder->crc = TVM_FRAME_CRC_INITIAL;
  decoder->frame_crc = 0;
  decoder->state = kStateHunting;
  decoder->escape_pending = 0;
}

/* A start marker: whatever came before is over, a new frame begins. */
static TVMFrameEvent StartFrame(TVMFrameDecoder* decoder) {
  TVMFrameEvent event = kTvmFrameNone;
  if (decoder->state == kStateHunting) {
    if (decoder->skipped > 0) {
      event = kTvmFrameGarbageSkipped;
    }
  } else if (decoder->state != kStateDiscarding) {
    event = kTvmFrameTruncated;
  }
  if (event != kTvmFrameGarbageSkipped) {
    decoder->skipped = 0;
  }
  decoder->length = 0;
  decoder->received = 0;
  decoder->crc = TVM_FRAME_CRC_INITIAL;
  decoder->frame_crc = 0;
  decoder->state = kStateLengthLow;
  decoder->escape_pending = 0;
  return event;
}

/* One unescaped byte of the frame's body (length, payload or CRC). */
static TVMFrameEvent TakeBodyByte(TVMFrameDecoder* decoder, uint8_t byte) {
  switch (decoder->state) {
    case kStateLengthLow:
      decoder->crc = CrcUpdate(decoder->crc, byte);
      decoder->length = byte;
      decoder->state = kStateLengthHigh;
      return kTvmFrameNone;
    case kStateLengthHigh:
      decoder->crc = CrcUpdate(decoder->crc, byte);
      decoder->length |= (size_t)byte << 8;
      if (decoder->length > decoder->capacity) {
        decoder->state = kStateDiscarding;
        return kTvmFrameTooLong;
      }
      decoder->state = decoder->length > 0 ? kStatePayload : kStateCrcLow;
      return kTvmFrameNone;
    case kStatePayload:
      decoder->crc = CrcUpdate(decoder->crc, byte);
      decoder->buffer[decoder->received++] = byte;
      if (decoder->received == decoder->length) {
        decoder->state = kStateCrcLow;
      }
      return kTvmFrameNone;
    case kStateCrcLow:
      decoder->frame_crc = byte;
      decoder->state = kStateCrcHigh;
      return kTvmFrameNone;
    default: /* kStateCrcHigh */
      decoder->frame_crc = (uint16_t)(decoder->frame_crc | ((uint16_t)byte << 8));
      /* Bytes between this frame and the next marker are garbage again. */
      decoder->state = kStateHunting;
      decoder->skipped = 0;
      return decoder->frame_crc == decoder->crc ? kTvmFrameComplete : kTvmFrameCrcMismatch;
  }
}

TVMFrameEvent TVMFrameDecoder_Feed(TVMFrameDecoder* decoder, uint8_t byte) {
  if (byte == TVM_FRAME_START_MARKER) {
    return StartFrame(decoder);
  }
  if (decoder->state == kStateHunting) {
    ++decoder->skipped;
    return kTvmFrameNone;
  }
  if (decoder->state == kStateDiscarding) {
    return kTvmFrameNone;
  }
  if (decoder->escape_pending) {
    decoder->escape_pending = 0;
    byte = (uint8_t)(byte ^ TVM_FRAME_ESCAPE_XOR);
    /* Only the two bytes that must be escaped ever are: anything else is corruption. */
    if (byte != TVM_FRAME_START_MARKER && byte != TVM_FRAME_ESCAPE) {
      decoder->state = kStateDiscarding;
      return kTvmFrameBadEscape;
    }
  } else if (byte == TVM_FRAME_ESCAPE) {
    decoder->escape_pending = 1;
    return kTvmFrameNone;
  }
  return TakeBodyByte(decoder, byte);
}
