// Little-endian fields of session messages and RPC bodies
// (docs/session_rpc.md): a writer that appends them and a reader that checks
// every field against what the board actually sent before reading it.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "session_error.h"

namespace loupe::host {

class WireWriter {
 public:
  void u8(std::uint8_t value) { bytes_.push_back(value); }
  void u16(std::uint16_t value) { little(value, 2); }
  void u32(std::uint32_t value) { little(value, 4); }
  void u64(std::uint64_t value) { little(value, 8); }
  void i32(std::int32_t value) { little(static_cast<std::uint32_t>(value), 4); }
  void i64(std::int64_t value) { little(static_cast<std::uint64_t>(value), 8); }
  void f64(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    u64(bits);
  }
  void bytes(std::span<const std::uint8_t> data) {
    bytes_.insert(bytes_.end(), data.begin(), data.end());
  }
  void text(std::string_view data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }

  const std::vector<std::uint8_t>& data() const { return bytes_; }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  void little(std::uint64_t value, int count) {
    for (int i = 0; i < count; ++i) bytes_.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
  }
  std::vector<std::uint8_t> bytes_;
};

// Reads fields in order; a field running past the end throws a Protocol
// SessionError naming what was being read ("RESPONSE to MODEL_INFO").
class WireReader {
 public:
  WireReader(std::span<const std::uint8_t> data, std::string what)
      : data_(data), what_(std::move(what)) {}

  std::uint8_t u8() { return static_cast<std::uint8_t>(little(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(little(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(little(4)); }
  std::uint64_t u64() { return little(8); }
  std::int32_t i32() { return static_cast<std::int32_t>(static_cast<std::uint32_t>(little(4))); }
  std::int64_t i64() { return static_cast<std::int64_t>(little(8)); }
  std::span<const std::uint8_t> bytes(std::size_t count) {
    need(count);
    const auto out = data_.subspan(position_, count);
    position_ += count;
    return out;
  }
  std::span<const std::uint8_t> rest() { return bytes(remaining()); }
  std::string text(std::size_t count) {
    const auto raw = bytes(count);
    return std::string(raw.begin(), raw.end());
  }

  std::size_t remaining() const { return data_.size() - position_; }
  // Throws unless every byte was read: trailing bytes mean a misunderstanding.
  void expectEnd() const {
    if (remaining() != 0) {
      throw SessionError(SessionErrorKind::Protocol, "malformed " + what_ + ": " +
                                                         std::to_string(remaining()) +
                                                         " unexpected bytes after the last field");
    }
  }

 private:
  void need(std::size_t count) const {
    if (count > remaining()) {
      throw SessionError(SessionErrorKind::Protocol,
                         "malformed " + what_ + ": needs " + std::to_string(count) +
                             " bytes at offset " + std::to_string(position_) + " but it has " +
                             std::to_string(data_.size()));
    }
  }
  std::uint64_t little(std::size_t count) {
    need(count);
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < count; ++i) {
      value |= static_cast<std::uint64_t>(data_[position_ + i]) << (8 * i);
    }
    position_ += count;
    return value;
  }

  std::span<const std::uint8_t> data_;
  std::size_t position_ = 0;
  std::string what_;
};

}  // namespace loupe::host
