// The host side of the serial framing (docs/serial_framing.md): frames a
// message for the board's UART and decodes the board's byte stream back into
// messages, counting what it had to drop. Same wire format as the board's
// tvm/runtime/crt/framing.h, implemented separately so each checks the other.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace loupe::host {

inline constexpr std::uint8_t kFrameStartMarker = 0x7E;
inline constexpr std::uint8_t kFrameEscape = 0x7D;
inline constexpr std::uint8_t kFrameEscapeXor = 0x20;
inline constexpr std::uint16_t kFrameCrcInitial = 0xFFFF;
inline constexpr std::size_t kFrameMaxPayload = 0xFFFF;

// CRC-16-CCITT (polynomial 0x1021, MSB first, no reflection, no final XOR),
// continued from crc; start from kFrameCrcInitial.
std::uint16_t frameCrc16(std::span<const std::uint8_t> bytes, std::uint16_t crc = kFrameCrcInitial);

// One whole frame: start marker, escaped length, payload and CRC. Throws
// std::length_error for payloads longer than kFrameMaxPayload.
std::vector<std::uint8_t> encodeFrame(std::span<const std::uint8_t> payload);

// What the decoder dropped, by reason; each dropped frame counts once.
struct FrameDecoderErrors {
  std::size_t crcMismatches = 0;  // whole frame, wrong CRC
  std::size_t tooLong = 0;        // length beyond maxPayload
  std::size_t badEscapes = 0;     // escape byte followed by a byte no encoder sends
  std::size_t truncated = 0;      // a start marker arrived inside a frame
  std::size_t garbageRuns = 0;    // runs of bytes outside frames, ended by a start marker
  std::size_t garbageBytes = 0;   // bytes in those runs

  std::size_t droppedFrames() const { return crcMismatches + tooLong + badEscapes + truncated; }
  bool operator==(const FrameDecoderErrors&) const = default;
};

// Decodes a byte stream fed in any pieces. Checked payloads queue up until
// taken; a start marker always begins a new frame, so the decoder resyncs after
// garbage, lost bytes or a board reset.
class FrameDecoder {
 public:
  explicit FrameDecoder(std::size_t maxPayload = kFrameMaxPayload);

  void feed(std::span<const std::uint8_t> bytes);
  void feed(std::uint8_t byte);

  bool hasPayload() const { return !payloads_.empty(); }
  // The oldest complete payload; call only when hasPayload().
  std::vector<std::uint8_t> takePayload();
  const FrameDecoderErrors& errors() const { return errors_; }

 private:
  enum class Expect { Garbage, Skip, Length, Payload, Crc };

  void startFrame();
  void takeBodyByte(std::uint8_t byte);
  void dropFrame(std::size_t FrameDecoderErrors::*counter);

  std::size_t maxPayload_;
  Expect expect_ = Expect::Garbage;
  bool escaped_ = false;
  std::size_t garbageInRun_ = 0;
  // Length and CRC fields are collected unescaped, then read little-endian.
  std::array<std::uint8_t, 2> field_{};
  std::size_t fieldBytes_ = 0;
  std::size_t length_ = 0;
  std::vector<std::uint8_t> payload_;
  std::deque<std::vector<std::uint8_t>> payloads_;
  FrameDecoderErrors errors_;
};

}  // namespace loupe::host
