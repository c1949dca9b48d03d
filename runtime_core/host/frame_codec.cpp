// Serial framing, host side: see frame_codec.h and docs/serial_framing.md.
// The CRC is table-driven here (the host has memory to spare), bit by bit on
// the board: two ways to the same check value.
#include "frame_codec.h"

#include <stdexcept>
#include <string>

namespace loupe::host {
namespace {

constexpr std::array<std::uint16_t, 256> makeCrcTable() {
  std::array<std::uint16_t, 256> table{};
  for (unsigned top = 0; top < 256; ++top) {
    std::uint16_t value = static_cast<std::uint16_t>(top << 8);
    for (int bit = 0; bit < 8; ++bit) {
      value = (value & 0x8000) ? static_cast<std::uint16_t>((value << 1) ^ 0x1021)
                               : static_cast<std::uint16_t>(value << 1);
    }
    table[top] = value;
  }
  return table;
}

constexpr auto kCrcTable = makeCrcTable();

constexpr std::uint16_t crcOf(const char* text, std::uint16_t crc = kFrameCrcInitial) {
  for (; *text != '\0'; ++text) {
    crc = static_cast<std::uint16_t>(
        (crc << 8) ^ kCrcTable[((crc >> 8) ^ static_cast<std::uint8_t>(*text)) & 0xFF]);
  }
  return crc;
}
static_assert(crcOf("123456789") == 0x29B1, "CRC-16/CCITT-FALSE check value");

void appendEscaped(std::vector<std::uint8_t>& out, std::uint8_t byte) {
  if (byte == kFrameStartMarker || byte == kFrameEscape) {
    out.push_back(kFrameEscape);
    out.push_back(static_cast<std::uint8_t>(byte ^ kFrameEscapeXor));
  } else {
    out.push_back(byte);
  }
}

}  // namespace

std::uint16_t frameCrc16(std::span<const std::uint8_t> bytes, std::uint16_t crc) {
  for (std::uint8_t byte : bytes) {
    crc = static_cast<std::uint16_t>((crc << 8) ^ kCrcTable[((crc >> 8) ^ byte) & 0xFF]);
  }
  return crc;
}

std::vector<std::uint8_t> encodeFrame(std::span<const std::uint8_t> payload) {
  if (payload.size() > kFrameMaxPayload) {
    throw std::length_error("frame payload of " + std::to_string(payload.size()) +
                            " bytes; the length field holds at most 65535");
  }
  const std::array<std::uint8_t, 2> length{static_cast<std::uint8_t>(payload.size() & 0xFF),
                                           static_cast<std::uint8_t>(payload.size() >> 8)};
  const std::uint16_t crc = frameCrc16(payload, frameCrc16(length));

  std::vector<std::uint8_t> frame;
  // Worst case every byte escaped.
  frame.reserve(1 + 2 * (length.size() + payload.size() + 2));
  frame.push_back(kFrameStartMarker);
  for (std::uint8_t byte : length) appendEscaped(frame, byte);
  for (std::uint8_t byte : payload) appendEscaped(frame, byte);
  appendEscaped(frame, static_cast<std::uint8_t>(crc & 0xFF));
  appendEscaped(frame, static_cast<std::uint8_t>(crc >> 8));
  return frame;
}

FrameDecoder::FrameDecoder(std::size_t maxPayload)
    : maxPayload_(maxPayload < kFrameMaxPayload ? maxPayload : kFrameMaxPayload) {}

void FrameDecoder::feed(std::span<const std::uint8_t> bytes) {
  for (std::uint8_t byte : bytes) feed(byte);
}

void FrameDecoder::feed(std::uint8_t byte) {
  if (byte == kFrameStartMarker) {
    startFrame();
    return;
  }
  switch (expect_) {
    case Expect::Garbage:
      ++garbageInRun_;
      return;
    case Expect::Skip:
      return;
    default:
      break;
  }
  if (escaped_) {
    escaped_ = false;
    const auto original = static_cast<std::uint8_t>(byte ^ kFrameEscapeXor);
    if (original != kFrameStartMarker && original != kFrameEscape) {
      dropFrame(&FrameDecoderErrors::badEscapes);
      return;
    }
    takeBodyByte(original);
  } else if (byte == kFrameEscape) {
    escaped_ = true;
  } else {
    takeBodyByte(byte);
  }
}

std::vector<std::uint8_t> FrameDecoder::takePayload() {
  std::vector<std::uint8_t> payload = std::move(payloads_.front());
  payloads_.pop_front();
  return payload;
}

void FrameDecoder::startFrame() {
  if (expect_ == Expect::Garbage && garbageInRun_ > 0) {
    ++errors_.garbageRuns;
    errors_.garbageBytes += garbageInRun_;
  } else if (expect_ == Expect::Length || expect_ == Expect::Payload || expect_ == Expect::Crc) {
    ++errors_.truncated;
  }
  garbageInRun_ = 0;
  expect_ = Expect::Length;
  escaped_ = false;
  fieldBytes_ = 0;
  length_ = 0;
  payload_.clear();
}

void FrameDecoder::dropFrame(std::size_t FrameDecoderErrors::*counter) {
  ++(errors_.*counter);
  expect_ = Expect::Skip;
}

void FrameDecoder::takeBodyByte(std::uint8_t byte) {
  switch (expect_) {
    case Expect::Length:
      field_[fieldBytes_++] = byte;
      if (fieldBytes_ == field_.size()) {
        length_ = static_cast<std::size_t>(field_[0]) | static_cast<std::size_t>(field_[1]) << 8;
        fieldBytes_ = 0;
        if (length_ > maxPayload_) {
          dropFrame(&FrameDecoderErrors::tooLong);
          return;
        }
        payload_.reserve(length_);
        expect_ = length_ == 0 ? Expect::Crc : Expect::Payload;
      }
      return;
    case Expect::Payload:
      payload_.push_back(byte);
      if (payload_.size() == length_) expect_ = Expect::Crc;
      return;
    case Expect::Crc: {
      field_[fieldBytes_++] = byte;
      if (fieldBytes_ < field_.size()) return;
      const auto received =
          static_cast<std::uint16_t>(field_[0] | static_cast<unsigned>(field_[1]) << 8);
      const std::array<std::uint8_t, 2> length{static_cast<std::uint8_t>(length_ & 0xFF),
                                               static_cast<std::uint8_t>(length_ >> 8)};
      expect_ = Expect::Garbage;
      garbageInRun_ = 0;
      if (received == frameCrc16(payload_, frameCrc16(length))) {
        payloads_.push_back(std::move(payload_));
        payload_ = {};
      } else {
        ++errors_.crcMismatches;
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace loupe::host
