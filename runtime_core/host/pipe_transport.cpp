// The child-process transport: see pipe_transport.h.
#include "pipe_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "fd_io.h"

extern char** environ;

namespace loupe::host {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kExitGrace{1'000};
constexpr std::size_t kStderrTailLines = 10;

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string lastLines(const std::string& text, std::size_t count) {
  std::size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  std::size_t begin = end;
  for (std::size_t lines = 0; begin > 0 && lines < count; --begin) {
    if (text[begin - 1] == '\n' && ++lines == count) break;
  }
  return text.substr(begin, end - begin);
}

}  // namespace

PipeTransport::PipeTransport(std::vector<std::string> argv, std::size_t stderrCapacity)
    : argv_(std::move(argv)), stderrCapacity_(std::max<std::size_t>(stderrCapacity, 1)) {
  if (argv_.empty() || argv_[0].empty()) {
    throw std::invalid_argument("PipeTransport: no program to start");
  }
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + errnoText(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]), ::close(in[1]);
    throw std::runtime_error("pipe: " + errnoText(error));
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    throw std::runtime_error("pipe: " + errnoText(error));
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // dup2 clears close-on-exec on the copies; every other pipe end closes at exec.
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  // The child starts with default signals even if this process ignores SIGPIPE.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none, pipeOnly;
  sigemptyset(&none);
  sigemptyset(&pipeOnly);
  sigaddset(&pipeOnly, SIGPIPE);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &pipeOnly);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (std::string& arg : argv_) args.push_back(arg.data());
  args.push_back(nullptr);
  const int spawned = ::posix_spawnp(&pid_, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(in[0]), ::close(out[1]), ::close(err[1]);
  if (spawned != 0) {
    ::close(in[1]), ::close(out[0]), ::close(err[0]);
    pid_ = -1;
    throw std::runtime_error("cannot start " + argv_[0] + ": " + errnoText(spawned));
  }
  stdin_ = in[1];
  stdout_ = out[0];
  stderrFd_ = err[0];
  ::fcntl(stdin_, F_SETFL, ::fcntl(stdin_, F_GETFL) | O_NONBLOCK);
  ::fcntl(stderrFd_, F_SETFL, ::fcntl(stderrFd_, F_GETFL) | O_NONBLOCK);
}

PipeTransport::~PipeTransport() {
  close();
}

std::string PipeTransport::describe() const {
  return "pipe to " + argv_[0] + " (pid " + std::to_string(pid_) + ")";
}

void PipeTransport::drainStderr(std::chrono::milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  std::array<char, 4096> buffer;
  while (stderrFd_ >= 0) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd entry{stderrFd_, POLLIN, 0};
    const int ready = ::poll(&entry, 1, static_cast<int>(std::max<long long>(0, left.count())));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;
    const ssize_t count = ::read(stderrFd_, buffer.data(), buffer.size());
    if (count > 0) {
      stderr_.append(buffer.data(), static_cast<std::size_t>(count));
      if (stderr_.size() > stderrCapacity_) stderr_.erase(0, stderr_.size() - stderrCapacity_);
      continue;
    }
    if (count < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    closeFd(stderrFd_);  // EOF: the child (and everything it started) closed stderr
  }
}

bool PipeTransport::reap(std::chrono::milliseconds wait) {
  if (exit_) return true;
  if (pid_ < 0) return false;
  const Clock::time_point deadline = Clock::now() + wait;
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      if (WIFEXITED(status)) {
        exit_ = "exited with status " + std::to_string(WEXITSTATUS(status));
      } else if (WIFSIGNALED(status)) {
        exit_ = "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                ::strsignal(WTERMSIG(status)) + ")";
      } else {
        exit_ = "ended";
      }
      return true;
    }
    if (done < 0 && errno != EINTR) {
      exit_ = "ended (" + errnoText(errno) + ")";
      return true;
    }
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds{5});
  }
}

void PipeTransport::childGone(const std::string& event) {
  if (!closedMessage_) {
    drainStderr(kExitGrace);
    std::string message = argv_[0] + " (pid " + std::to_string(pid_) + ") ";
    if (reap(kExitGrace)) {
      message += *exit_;
    } else {
      message += event + " but is still running";
    }
    const std::string tail = lastLines(stderr_, kStderrTailLines);
    message += tail.empty() ? "; it wrote nothing to stderr" : "; the end of its stderr:\n" + tail;
    closedMessage_ = message;
  }
  throw TransportClosed(*closedMessage_);
}

void PipeTransport::write(std::span<const std::uint8_t> bytes) {
  if (closedMessage_) throw TransportClosed(*closedMessage_);
  if (stdin_ < 0) throw TransportClosed(describe() + " is closed");
  int error;
  {
    SigpipeBlock noSigpipe;
    drainStderr(std::chrono::milliseconds{0});
    error = writeAll(stdin_, bytes, kWriteStallTimeout);
  }
  if (error == EPIPE) childGone("closed its standard input");
  if (error == ETIMEDOUT) {
    throw TransportClosed(describe() + " stopped reading its standard input for " +
                          std::to_string(kWriteStallTimeout.count()) + " ms");
  }
  if (error != 0) throw TransportClosed("writing to " + describe() + ": " + errnoText(error));
}

std::size_t PipeTransport::read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) {
  if (closedMessage_) throw TransportClosed(*closedMessage_);
  if (stdout_ < 0) throw TransportClosed(describe() + " is closed");
  if (buffer.empty()) return 0;  // a zero-byte read would look like end of stream
  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    std::array<pollfd, 2> entries{pollfd{stdout_, POLLIN, 0}, pollfd{stderrFd_, POLLIN, 0}};
    const nfds_t count = stderrFd_ >= 0 ? 2 : 1;
    const int ready =
        ::poll(entries.data(), count, static_cast<int>(std::max<long long>(0, left.count())));
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw TransportClosed("waiting for " + describe() + ": " + errnoText(errno));
    }
    if (ready == 0) return 0;
    if (count == 2 && entries[1].revents != 0) drainStderr(std::chrono::milliseconds{0});
    if (entries[0].revents != 0) {
      const ssize_t got = ::read(stdout_, buffer.data(), buffer.size());
      if (got > 0) return static_cast<std::size_t>(got);
      if (got == 0) childGone("closed its standard output");
      if (errno != EINTR && errno != EAGAIN) {
        throw TransportClosed("reading from " + describe() + ": " + errnoText(errno));
      }
    }
    if (Clock::now() >= deadline) return 0;
  }
}

void PipeTransport::closeFds() {
  closeFd(stdin_);
  closeFd(stdout_);
  closeFd(stderrFd_);
}

void PipeTransport::close() {
  if (pid_ > 0 && !exit_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exit_ = "was killed by the host";
  }
  closeFds();
  if (!closedMessage_) closedMessage_ = describe() + " is closed";
}

}  // namespace loupe::host
