// A serial device as the link to a real board (/dev/ttyACM0, /dev/ttyUSB0):
// raw mode, 8 data bits, no parity, one stop bit, no flow control, at a baud
// rate given as a number.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "transport.h"

namespace loupe::host {

class TtyTransport : public Transport {
 public:
  // Throws std::invalid_argument for a baud rate termios cannot set and
  // std::runtime_error when the device cannot be opened or configured, with
  // a hint where one helps (the dialout group, a missing board).
  explicit TtyTransport(std::string device, unsigned baud = 115200);
  ~TtyTransport() override;
  TtyTransport(const TtyTransport&) = delete;
  TtyTransport& operator=(const TtyTransport&) = delete;

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  void close() override;
  std::string describe() const override;

  static std::vector<unsigned> supportedBaudRates();

 private:
  std::string device_;
  unsigned baud_;
  int fd_ = -1;
};

}  // namespace loupe::host
