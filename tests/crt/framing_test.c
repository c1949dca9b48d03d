/*
 * The board's serial framing (docs/serial_framing.md): encoder and decoder
 * round trips, escaping, the CRC variant's check value, and every error the
 * decoder reports, each followed by a frame that must still decode.
 */
#include <stdint.h>
#include <string.h>
#include <tvm/runtime/crt/framing.h>

#include "crt_test.h"

/* A fake UART: encoded bytes land here; fail_after makes the link fail. */
#define WIRE_BYTES (2 * 70000 + 16)
static uint8_t wire[WIRE_BYTES];
static size_t wire_size;
static size_t fail_after = (size_t)-1;

static tvm_crt_error_t WireWrite(void* context, uint8_t byte) {
  (void)context;
  if (wire_size >= fail_after || wire_size >= WIRE_BYTES) {
    return kTvmErrorPlatformNoMemory;
  }
  wire[wire_size++] = byte;
  return kTvmErrorNoError;
}

static void WireEncode(const uint8_t* payload, size_t size) {
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncode(payload, size, WireWrite, NULL));
}

static uint8_t receive_buffer[TVM_FRAME_MAX_PAYLOAD];
static TVMFrameDecoder decoder;

/* Counts of each event while feeding bytes [begin, end) of the wire. */
static size_t events[kTvmFrameGarbageSkipped + 1];

static void ResetEvents(void) {
  memset(events, 0, sizeof(events));
}

static TVMFrameEvent FeedWire(size_t begin, size_t end) {
  TVMFrameEvent last = kTvmFrameNone;
  size_t i;
  for (i = begin; i < end; ++i) {
    TVMFrameEvent event = TVMFrameDecoder_Feed(&decoder, wire[i]);
    ++events[event];
    if (event != kTvmFrameNone) {
      last = event;
    }
  }
  return last;
}

static void StartTest(size_t capacity) {
  wire_size = 0;
  fail_after = (size_t)-1;
  ResetEvents();
  TVMFrameDecoder_Init(&decoder, receive_buffer, capacity);
}

static int DecodedEquals(const uint8_t* payload, size_t size) {
  return decoder.length == size && (size == 0 || memcmp(decoder.buffer, payload, size) == 0);
}

static void test_crc_of_the_check_string_is_0x29b1(void) {
  static const uint8_t check[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  CRT_EXPECT_EQ_INT(0x29B1, TVMFrameCrc16(TVM_FRAME_CRC_INITIAL, check, sizeof(check)));
  /* Continuing a CRC over a split buffer gives the same value. */
  CRT_EXPECT_EQ_INT(0x29B1, TVMFrameCrc16(TVMFrameCrc16(TVM_FRAME_CRC_INITIAL, check, 4), check + 4,
                                          sizeof(check) - 4));
}

static void test_an_empty_payload_is_marker_length_and_crc(void) {
  uint16_t crc;
  static const uint8_t zero_length[] = {0, 0};
  StartTest(0);
  WireEncode(NULL, 0);
  crc = TVMFrameCrc16(TVM_FRAME_CRC_INITIAL, zero_length, 2);
  /* CRC of two zero bytes has no byte needing escape, so the frame is 5 bytes. */
  CRT_EXPECT_EQ_INT(5, wire_size);
  CRT_EXPECT_EQ_INT(TVM_FRAME_START_MARKER, wire[0]);
  CRT_EXPECT_EQ_INT(0, wire[1]);
  CRT_EXPECT_EQ_INT(0, wire[2]);
  CRT_EXPECT_EQ_INT(crc & 0xFF, wire[3]);
  CRT_EXPECT_EQ_INT(crc >> 8, wire[4]);
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
  CRT_EXPECT_EQ_INT(0, decoder.length);
}

static void test_every_byte_value_round_trips(void) {
  uint8_t payload[256];
  size_t i;
  for (i = 0; i < 256; ++i) {
    payload[i] = (uint8_t)i;
  }
  StartTest(sizeof(payload));
  WireEncode(payload, sizeof(payload));
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
  CRT_EXPECT_EQ_INT(1, events[kTvmFrameComplete]);
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
  /* Each value alone, too: a one-byte frame per value back to back. */
  for (i = 0; i < 256; ++i) {
    wire_size = 0;
    WireEncode(&payload[i], 1);
    CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
    CRT_EXPECT(DecodedEquals(&payload[i], 1));
  }
}

static void test_markers_and_escapes_in_the_payload_are_escaped(void) {
  static const uint8_t payload[] = {0x7E, 0x7D, 0x7E, 0x7E, 0x5E, 0x5D, 0x7D, 0x20};
  size_t i;
  size_t markers = 0;
  StartTest(sizeof(payload));
  WireEncode(payload, sizeof(payload));
  for (i = 0; i < wire_size; ++i) {
    markers += wire[i] == TVM_FRAME_START_MARKER;
  }
  CRT_EXPECT_EQ_INT(1, markers);
  CRT_EXPECT_EQ_INT(TVM_FRAME_ESCAPE, wire[3]);
  CRT_EXPECT_EQ_INT(0x5E, wire[4]);
  CRT_EXPECT_EQ_INT(TVM_FRAME_ESCAPE, wire[5]);
  CRT_EXPECT_EQ_INT(0x5D, wire[6]);
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
}

static void test_a_length_equal_to_the_marker_is_escaped_too(void) {
  static uint8_t payload[0x7E7D];
  size_t i;
  for (i = 0; i < sizeof(payload); ++i) {
    payload[i] = (uint8_t)(i * 7);
  }
  StartTest(sizeof(payload));
  WireEncode(payload, sizeof(payload));
  CRT_EXPECT_EQ_INT(TVM_FRAME_ESCAPE, wire[1]);
  CRT_EXPECT_EQ_INT(0x5D, wire[2]);
  CRT_EXPECT_EQ_INT(TVM_FRAME_ESCAPE, wire[3]);
  CRT_EXPECT_EQ_INT(0x5E, wire[4]);
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
}

static void test_the_longest_payload_fills_the_buffer_exactly(void) {
  static uint8_t payload[TVM_FRAME_MAX_PAYLOAD];
  size_t i;
  for (i = 0; i < sizeof(payload); ++i) {
    payload[i] = (uint8_t)(i ^ (i >> 8));
  }
  StartTest(TVM_FRAME_MAX_PAYLOAD);
  WireEncode(payload, sizeof(payload));
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
}

static void test_the_encoder_refuses_a_payload_the_length_cannot_hold(void) {
  static uint8_t payload[TVM_FRAME_MAX_PAYLOAD + 1];
  StartTest(0);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument,
                    TVMFrameEncode(payload, sizeof(payload), WireWrite, NULL));
  CRT_EXPECT_EQ_INT(0, wire_size);
}

static void test_the_encoder_stops_at_the_writers_first_error(void) {
  static const uint8_t payload[] = {1, 2, 3, 4};
  StartTest(0);
  fail_after = 3;
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory,
                    TVMFrameEncode(payload, sizeof(payload), WireWrite, NULL));
  CRT_EXPECT_EQ_INT(3, wire_size);
}

static void test_a_frame_written_in_pieces_equals_the_frame_written_whole(void) {
  static const uint8_t payload[] = {0x01, 0x7E, 0x02, 0x7D, 0x03, 0x04, 0x05};
  static uint8_t whole[32];
  size_t whole_size;
  TVMFrameEncoder encoder;
  StartTest(sizeof(payload));
  WireEncode(payload, sizeof(payload));
  whole_size = wire_size;
  memcpy(whole, wire, whole_size);
  wire_size = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMFrameEncoder_Begin(&encoder, sizeof(payload), WireWrite, NULL));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_Write(&encoder, payload, 2));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_Write(&encoder, NULL, 0));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_Write(&encoder, payload + 2, 1));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMFrameEncoder_Write(&encoder, payload + 3, sizeof(payload) - 3));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_End(&encoder));
  CRT_EXPECT_EQ_INT(whole_size, wire_size);
  CRT_EXPECT(memcmp(whole, wire, whole_size) == 0);
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(0, wire_size));
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
}

static void test_the_piecewise_encoder_refuses_more_or_fewer_bytes_than_announced(void) {
  static const uint8_t payload[] = {1, 2, 3};
  TVMFrameEncoder encoder;
  size_t after_begin;
  StartTest(sizeof(payload));
  /* Too many: the excess call writes nothing and the error sticks. */
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_Begin(&encoder, 2, WireWrite, NULL));
  after_begin = wire_size;
  CRT_EXPECT_EQ_INT(3, after_begin);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMFrameEncoder_Write(&encoder, payload, 3));
  CRT_EXPECT_EQ_INT(after_begin, wire_size);
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMFrameEncoder_Write(&encoder, payload, 1));
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMFrameEncoder_End(&encoder));
  CRT_EXPECT_EQ_INT(after_begin, wire_size);
  /* Too few: no CRC, so the decoder never delivers the frame. */
  wire_size = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_Begin(&encoder, 3, WireWrite, NULL));
  CRT_EXPECT_EQ_INT(kTvmErrorNoError, TVMFrameEncoder_Write(&encoder, payload, 2));
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument, TVMFrameEncoder_End(&encoder));
  CRT_EXPECT_EQ_INT(5, wire_size);
  CRT_EXPECT_EQ_INT(kTvmFrameNone, FeedWire(0, wire_size));
  /* Too long for the length field: nothing at all is written. */
  wire_size = 0;
  CRT_EXPECT_EQ_INT(kTvmErrorInvalidArgument,
                    TVMFrameEncoder_Begin(&encoder, TVM_FRAME_MAX_PAYLOAD + 1, WireWrite, NULL));
  CRT_EXPECT_EQ_INT(0, wire_size);
}

static void test_the_piecewise_encoder_stops_at_the_writers_first_error(void) {
  static const uint8_t payload[] = {1, 2, 3, 4};
  TVMFrameEncoder encoder;
  StartTest(0);
  fail_after = 4;
  CRT_EXPECT_EQ_INT(kTvmErrorNoError,
                    TVMFrameEncoder_Begin(&encoder, sizeof(payload), WireWrite, NULL));
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMFrameEncoder_Write(&encoder, payload, 4));
  CRT_EXPECT_EQ_INT(4, wire_size);
  CRT_EXPECT_EQ_INT(kTvmErrorPlatformNoMemory, TVMFrameEncoder_End(&encoder));
  CRT_EXPECT_EQ_INT(4, wire_size);
}

static void test_every_corrupted_byte_is_reported_and_never_delivered(void) {
  static const uint8_t payload[] = {'h', 'e', 'l', 'l', 'o', 0x7E, 0x7D, 0};
  static uint8_t good[64];
  size_t good_size;
  size_t position;
  int flip;
  StartTest(sizeof(payload));
  WireEncode(payload, sizeof(payload));
  good_size = wire_size;
  memcpy(good, wire, good_size);
  /* Every byte after the marker, every single-bit flip; then a good frame. */
  for (position = 1; position < good_size; ++position) {
    for (flip = 0; flip < 8; ++flip) {
      memcpy(wire, good, good_size);
      memcpy(wire + good_size, good, good_size);
      wire[position] = (uint8_t)(wire[position] ^ (1u << flip));
      TVMFrameDecoder_Init(&decoder, receive_buffer, sizeof(payload));
      ResetEvents();
      FeedWire(0, good_size);
      CRT_EXPECT_EQ_INT(0, events[kTvmFrameComplete]);
      /* Reported by the end of the frame or, at the latest, by the next marker. */
      FeedWire(good_size, good_size + 1);
      CRT_EXPECT(events[kTvmFrameCrcMismatch] + events[kTvmFrameTooLong] +
                     events[kTvmFrameBadEscape] + events[kTvmFrameTruncated] >=
                 1);
      CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(good_size + 1, 2 * good_size));
      CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
    }
  }
}

static void test_a_corrupted_crc_is_a_crc_mismatch(void) {
  static const uint8_t payload[] = {1, 2, 3};
  StartTest(sizeof(payload));
  WireEncode(payload, sizeof(payload));
  wire[wire_size - 1] ^= 0x01;
  CRT_EXPECT_EQ_INT(kTvmFrameCrcMismatch, FeedWire(0, wire_size));
  CRT_EXPECT_EQ_INT(0, events[kTvmFrameComplete]);
}

static void test_a_truncated_frame_is_reported_and_the_next_frame_decodes(void) {
  static const uint8_t first[] = {10, 11, 12, 13, 14, 15};
  static const uint8_t second[] = {20, 21};
  size_t first_size;
  StartTest(sizeof(first));
  WireEncode(first, sizeof(first));
  first_size = wire_size;
  WireEncode(second, sizeof(second));
  /* The board reset half way through the first frame. */
  memmove(wire + 4, wire + first_size, wire_size - first_size);
  wire_size = wire_size - first_size + 4;
  CRT_EXPECT_EQ_INT(kTvmFrameNone, FeedWire(0, 4));
  CRT_EXPECT_EQ_INT(kTvmFrameTruncated, FeedWire(4, 5));
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(5, wire_size));
  CRT_EXPECT(DecodedEquals(second, sizeof(second)));
  CRT_EXPECT_EQ_INT(1, events[kTvmFrameComplete]);
}

static void test_leading_garbage_is_skipped_and_counted(void) {
  static const uint8_t payload[] = {42};
  static const uint8_t garbage[] = {0x00, 0xFF, 0x7D, 0x5E, 0x7D, 0x13};
  StartTest(sizeof(payload));
  memcpy(wire, garbage, sizeof(garbage));
  wire_size = sizeof(garbage);
  WireEncode(payload, sizeof(payload));
  CRT_EXPECT_EQ_INT(kTvmFrameNone, FeedWire(0, sizeof(garbage)));
  CRT_EXPECT_EQ_INT(kTvmFrameGarbageSkipped, FeedWire(sizeof(garbage), sizeof(garbage) + 1));
  CRT_EXPECT_EQ_INT(sizeof(garbage), decoder.skipped);
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(sizeof(garbage) + 1, wire_size));
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
}

static void test_back_to_back_frames_report_no_garbage(void) {
  static const uint8_t payload[] = {1, 0x7E, 3};
  int i;
  StartTest(sizeof(payload));
  for (i = 0; i < 5; ++i) {
    WireEncode(payload, sizeof(payload));
  }
  FeedWire(0, wire_size);
  CRT_EXPECT_EQ_INT(5, events[kTvmFrameComplete]);
  CRT_EXPECT_EQ_INT(wire_size - 5, events[kTvmFrameNone]);
}

static void test_a_frame_longer_than_the_buffer_is_reported_not_written(void) {
  static uint8_t payload[40];
  static const uint8_t next[] = {9, 8, 7};
  size_t first_size;
  memset(payload, 0xAB, sizeof(payload));
  StartTest(sizeof(payload) - 1);
  memset(receive_buffer, 0, sizeof(payload));
  WireEncode(payload, sizeof(payload));
  first_size = wire_size;
  WireEncode(next, sizeof(next));
  /* Reported as soon as the length is known: marker + two length bytes. */
  CRT_EXPECT_EQ_INT(kTvmFrameTooLong, FeedWire(0, 3));
  CRT_EXPECT_EQ_INT(kTvmFrameNone, FeedWire(3, first_size));
  CRT_EXPECT_EQ_INT(0, receive_buffer[0]);
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(first_size, wire_size));
  CRT_EXPECT(DecodedEquals(next, sizeof(next)));
  CRT_EXPECT_EQ_INT(1, events[kTvmFrameTooLong]);
  CRT_EXPECT_EQ_INT(0, events[kTvmFrameGarbageSkipped]);
}

static void test_an_escape_no_encoder_sends_is_reported(void) {
  static const uint8_t payload[] = {5, 6};
  StartTest(sizeof(payload));
  wire[0] = TVM_FRAME_START_MARKER;
  wire[1] = 2;
  wire[2] = TVM_FRAME_ESCAPE;
  wire[3] = 0x00; /* would unescape to 0x20, which is never escaped */
  wire[4] = 0x11;
  wire_size = 5;
  WireEncode(payload, sizeof(payload));
  CRT_EXPECT_EQ_INT(kTvmFrameBadEscape, FeedWire(0, 4));
  CRT_EXPECT_EQ_INT(kTvmFrameComplete, FeedWire(4, wire_size));
  CRT_EXPECT(DecodedEquals(payload, sizeof(payload)));
  CRT_EXPECT_EQ_INT(0, events[kTvmFrameGarbageSkipped]);
}

int main(void) {
  CRT_RUN(test_crc_of_the_check_string_is_0x29b1);
  CRT_RUN(test_an_empty_payload_is_marker_length_and_crc);
  CRT_RUN(test_every_byte_value_round_trips);
  CRT_RUN(test_markers_and_escapes_in_the_payload_are_escaped);
  CRT_RUN(test_a_length_equal_to_the_marker_is_escaped_too);
  CRT_RUN(test_the_longest_payload_fills_the_buffer_exactly);
  CRT_RUN(test_the_encoder_refuses_a_payload_the_length_cannot_hold);
  CRT_RUN(test_the_encoder_stops_at_the_writers_first_error);
  CRT_RUN(test_a_frame_written_in_pieces_equals_the_frame_written_whole);
  CRT_RUN(test_the_piecewise_encoder_refuses_more_or_fewer_bytes_than_announced);
  CRT_RUN(test_the_piecewise_encoder_stops_at_the_writers_first_error);
  CRT_RUN(test_every_corrupted_byte_is_reported_and_never_delivered);
  CRT_RUN(test_a_corrupted_crc_is_a_crc_mismatch);
  CRT_RUN(test_a_truncated_frame_is_reported_and_the_next_frame_decodes);
  CRT_RUN(test_leading_garbage_is_skipped_and_counted);
  CRT_RUN(test_back_to_back_frames_report_no_garbage);
  CRT_RUN(test_a_frame_longer_than_the_buffer_is_reported_not_written);
  CRT_RUN(test_an_escape_no_encoder_sends_is_reported);
  return crt_test_exit_code();
}
