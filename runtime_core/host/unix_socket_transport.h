// A Unix stream socket as the link to a board: QEMU's emulated UART with
// `-chardev socket,path=...,server=on`. QEMU creates the socket a moment after
// it starts, so connecting retries until the path accepts or a time-out passes.
#pragma once

#include <chrono>
#include <string>

#include "transport.h"

namespace loupe::host {

class UnixSocketTransport : public Transport {
 public:
  // Connects, retrying every retryInterval while the path does not exist or
  // refuses; throws std::runtime_error when connectTimeout passes first or on
  // any other error.
  explicit UnixSocketTransport(std::string path,
                               std::chrono::milliseconds connectTimeout = std::chrono::seconds{5},
                               std::chrono::milliseconds retryInterval = std::chrono::milliseconds{
                                   20});
  ~UnixSocketTransport() override;
  UnixSocketTransport(const UnixSocketTransport&) = delete;
  UnixSocketTransport& operator=(const UnixSocketTransport&) = delete;

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  void close() override;
  std::string describe() const override;

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace loupe::host
