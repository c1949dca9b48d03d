// File-descriptor plumbing the Unix transports share: reading with poll()
// and a time-out, writing everything through short writes, errno as text,
// and keeping a write to a dead pipe from killing the process with SIGPIPE.
#pragma once

#include <signal.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace loupe::host {

std::string errnoText(int error);  // "Permission denied"

struct FdReadResult {
  std::size_t bytes = 0;     // 0 on time-out
  bool endOfStream = false;  // the peer closed (EOF or hang-up)
  int error = 0;             // errno of a failed read or poll
};

// Waits up to timeout for fd to become readable, then reads what is there.
FdReadResult readWithPoll(int fd, std::span<std::uint8_t> buffer,
                          std::chrono::milliseconds timeout);

// How long the transports wait for a stalled peer to take one more byte
// before their write fails.
inline constexpr std::chrono::milliseconds kWriteStallTimeout{10'000};

// Writes all bytes, polling while a non-blocking fd is full; gives up when no
// byte could be written for stallTimeout. Returns 0 or the errno (ETIMEDOUT
// for a stall, EPIPE when the reader is gone).
int writeAll(int fd, std::span<const std::uint8_t> bytes, std::chrono::milliseconds stallTimeout);

// Blocks SIGPIPE in this thread while alive and swallows one raised meanwhile,
// so a write to a pipe whose reader exited fails with EPIPE instead.
class SigpipeBlock {
 public:
  SigpipeBlock();
  ~SigpipeBlock();
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t previous_;
  bool wasPending_ = false;
};

}  // namespace loupe::host
