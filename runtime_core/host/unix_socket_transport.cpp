// The Unix socket transport: see unix_socket_transport.h.
#include "unix_socket_transport.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "fd_io.h"

namespace loupe::host {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

UnixSocketTransport::UnixSocketTransport(std::string path, std::chrono::milliseconds connectTimeout,
                                         std::chrono::milliseconds retryInterval)
    : path_(std::move(path)) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path_.empty() || path_.size() >= sizeof address.sun_path) {
    throw std::runtime_error("cannot connect to '" + path_ + "': a Unix socket path must be 1 to " +
                             std::to_string(sizeof address.sun_path - 1) + " bytes long");
  }
  std::memcpy(address.sun_path, path_.data(), path_.size());
  const Clock::time_point deadline = Clock::now() + connectTimeout;
  for (;;) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error("socket: " + errnoText(errno));
    int connected;
    do {
      connected = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    } while (connected != 0 && errno == EINTR);
    if (connected == 0) {
      // Non-blocking from here on, so a peer that stops reading cannot hang a write.
      ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
      return;
    }
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    // The socket does not exist yet, or exists but is not listening yet.
    const bool notYet = error == ENOENT || error == ECONNREFUSED;
    if (!notYet) {
      throw std::runtime_error("cannot connect to " + path_ + ": " + errnoText(error));
    }
    if (Clock::now() >= deadline) {
      throw std::runtime_error("cannot connect to " + path_ + ": " + errnoText(error) +
                               " (waited " + std::to_string(connectTimeout.count()) +
                               " ms for it to accept)");
    }
    std::this_thread::sleep_for(std::min(
        retryInterval, std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now())));
  }
}

UnixSocketTransport::~UnixSocketTransport() {
  close();
}

std::string UnixSocketTransport::describe() const {
  return "Unix socket " + path_;
}

void UnixSocketTransport::write(std::span<const std::uint8_t> bytes) {
  if (fd_ < 0) throw TransportClosed(describe() + " is closed");
  int error;
  {
    SigpipeBlock noSigpipe;
    error = writeAll(fd_, bytes, kWriteStallTimeout);
  }
  if (error == EPIPE || error == ECONNRESET) throw TransportClosed("the peer closed " + describe());
  if (error == ETIMEDOUT) {
    throw TransportClosed("the peer of " + describe() + " read nothing for " +
                          std::to_string(kWriteStallTimeout.count()) + " ms");
  }
  if (error != 0) throw TransportClosed("writing to " + describe() + ": " + errnoText(error));
}

std::size_t UnixSocketTransport::read(std::span<std::uint8_t> buffer,
                                      std::chrono::milliseconds timeout) {
  if (fd_ < 0) throw TransportClosed(describe() + " is closed");
  const FdReadResult result = readWithPoll(fd_, buffer, timeout);
  if (result.endOfStream) throw TransportClosed("the peer closed " + describe());
  if (result.error != 0) {
    throw TransportClosed("reading from " + describe() + ": " + errnoText(result.error));
  }
  return result.bytes;
}

void UnixSocketTransport::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace loupe::host
