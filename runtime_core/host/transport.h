// A byte link to a board: what the session (docs/session_rpc.md) reads frames
// from and writes frames to. Implementations: a child process's pipes (the
// host platform), a Unix socket (a QEMU board's emulated UART), a tty (a real
// board), and a fault-injecting wrapper for tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace loupe::host {

// The link is gone: the peer closed it, the process exited, the device
// vanished. what() says which, with what the peer said last if known.
class TransportClosed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Transport {
 public:
  virtual ~Transport() = default;

  // Writes all bytes; throws TransportClosed when the link is gone.
  virtual void write(std::span<const std::uint8_t> bytes) = 0;

  // Waits up to timeout for at least one byte and reads what is available,
  // at most buffer.size() bytes. Returns 0 when the time-out passes first;
  // throws TransportClosed when the link is gone.
  virtual std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) = 0;

  // Closes the link (idempotent). After close, read and write throw.
  virtual void close() = 0;

  // "pipe to model_host (pid 1234)", "/dev/ttyACM0 at 115200 baud", ...
  virtual std::string describe() const = 0;
};

}  // namespace loupe::host
