// File-descriptor plumbing for the transports: see fd_io.h.
#include "fd_io.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace loupe::host {

using Clock = std::chrono::steady_clock;

std::string errnoText(int error) {
  return std::strerror(error);
}

FdReadResult readWithPoll(int fd, std::span<std::uint8_t> buffer,
                          std::chrono::milliseconds timeout) {
  if (buffer.empty()) return {};  // a zero-byte read would look like end of stream
  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd entry{fd, POLLIN, 0};
    const int ready = ::poll(&entry, 1, static_cast<int>(std::max<long long>(0, left.count())));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return {0, false, errno};
    }
    if (ready == 0) return {};
    if (entry.revents & POLLNVAL) return {0, false, EBADF};
    const ssize_t count = ::read(fd, buffer.data(), buffer.size());
    if (count > 0) return {static_cast<std::size_t>(count), false, 0};
    // EOF: a pipe or socket whose writer closed, or a tty that hung up.
    if (count == 0) return {0, true, 0};
    if (errno == EINTR || errno == EAGAIN) {
      if (Clock::now() >= deadline) return {};
      continue;
    }
    if (errno == EIO || errno == ECONNRESET) return {0, true, errno};
    return {0, false, errno};
  }
}

int writeAll(int fd, std::span<const std::uint8_t> bytes, std::chrono::milliseconds stallTimeout) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t count = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (count > 0) {
      done += static_cast<std::size_t>(count);
      continue;
    }
    if (count < 0 && errno == EINTR) continue;
    if (count < 0 && errno != EAGAIN) return errno;
    pollfd entry{fd, POLLOUT, 0};
    int ready;
    do {
      ready = ::poll(&entry, 1, static_cast<int>(stallTimeout.count()));
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) return errno;
    if (ready == 0) return ETIMEDOUT;
    if (entry.revents & (POLLERR | POLLHUP) && !(entry.revents & POLLOUT)) return EPIPE;
  }
  return 0;
}

SigpipeBlock::SigpipeBlock() {
  sigset_t pipeOnly;
  sigemptyset(&pipeOnly);
  sigaddset(&pipeOnly, SIGPIPE);
  sigset_t pending;
  sigpending(&pending);
  wasPending_ = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous_);
}

SigpipeBlock::~SigpipeBlock() {
  if (!wasPending_) {
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) == 1) {
      sigset_t pipeOnly;
      sigemptyset(&pipeOnly);
      sigaddset(&pipeOnly, SIGPIPE);
      const timespec now{0, 0};
      while (sigtimedwait(&pipeOnly, nullptr, &now) < 0 && errno == EINTR) {
      }
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace loupe::host
