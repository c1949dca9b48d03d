// libFuzzer target for the board's frame decoder (runtime_core/crt framing.c),
// checked differentially against the host's FrameDecoder: on any byte stream
// both must deliver the same payloads at the same bytes and count the same
// errors, the board's must never write past its buffer (ASan), and every
// payload it delivers must survive re-encoding and decoding again.
// Input: first byte picks the receive buffer size (0..255), the rest is the
// stream.
#include <tvm/runtime/crt/framing.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "frame_codec.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

void check(bool condition) {
  if (!condition) std::abort();
}

tvm_crt_error_t appendByte(void* context, std::uint8_t byte) {
  static_cast<Bytes*>(context)->push_back(byte);
  return kTvmErrorNoError;
}

void checkRoundTrip(const std::uint8_t* payload, std::size_t size) {
  Bytes frame;
  check(TVMFrameEncode(payload, size, appendByte, &frame) == kTvmErrorNoError);
  check(frame == loupe::host::encodeFrame({payload, size}));
  Bytes buffer(size);
  TVMFrameDecoder decoder;
  TVMFrameDecoder_Init(&decoder, buffer.data(), buffer.size());
  std::size_t completed = 0;
  for (std::uint8_t byte : frame) {
    const TVMFrameEvent event = TVMFrameDecoder_Feed(&decoder, byte);
    check(event == kTvmFrameNone || event == kTvmFrameComplete);
    completed += event == kTvmFrameComplete;
  }
  check(completed == 1 && decoder.length == size);
  check(size == 0 || std::equal(payload, payload + size, buffer.begin()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t capacity = data[0];
  // Exactly capacity bytes on the heap, so ASan sees any overrun.
  std::unique_ptr<std::uint8_t[]> buffer(new std::uint8_t[capacity > 0 ? capacity : 1]);
  TVMFrameDecoder board;
  TVMFrameDecoder_Init(&board, capacity > 0 ? buffer.get() : nullptr, capacity);
  loupe::host::FrameDecoder host(capacity);
  loupe::host::FrameDecoderErrors boardErrors;

  for (std::size_t i = 1; i < size; ++i) {
    const TVMFrameEvent event = TVMFrameDecoder_Feed(&board, data[i]);
    host.feed(data[i]);
    switch (event) {
      case kTvmFrameComplete: {
        check(board.length <= capacity);
        check(host.hasPayload());
        const Bytes payload = host.takePayload();
        check(payload.size() == board.length);
        check(board.length == 0 || std::equal(payload.begin(), payload.end(), buffer.get()));
        checkRoundTrip(buffer.get(), board.length);
        break;
      }
      case kTvmFrameCrcMismatch:
        ++boardErrors.crcMismatches;
        break;
      case kTvmFrameTooLong:
        ++boardErrors.tooLong;
        break;
      case kTvmFrameBadEscape:
        ++boardErrors.badEscapes;
        break;
      case kTvmFrameTruncated:
        ++boardErrors.truncated;
        break;
      case kTvmFrameGarbageSkipped:
        ++boardErrors.garbageRuns;
        boardErrors.garbageBytes += board.skipped;
        break;
      case kTvmFrameNone:
        break;
    }
    check(!host.hasPayload());
    check(host.errors() == boardErrors);
  }
  return 0;
}
