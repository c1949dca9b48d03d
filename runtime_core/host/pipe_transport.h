// A child process's standard input and output as the link to a board: the
// host platform's model runner, or any board simulator. The child is spawned
// from an argv list (no shell); its stderr is kept in a bounded buffer so that
// when it dies, TransportClosed can say how and what it printed last.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "transport.h"

namespace loupe::host {

class PipeTransport : public Transport {
 public:
  // Spawns argv (argv[0] is looked up in PATH unless it has a slash). Keeps
  // the last stderrCapacity bytes of the child's stderr. Throws
  // std::runtime_error when the program cannot be started.
  explicit PipeTransport(std::vector<std::string> argv, std::size_t stderrCapacity = 16 * 1024);
  ~PipeTransport() override;
  PipeTransport(const PipeTransport&) = delete;
  PipeTransport& operator=(const PipeTransport&) = delete;

  void write(std::span<const std::uint8_t> bytes) override;
  std::size_t read(std::span<std::uint8_t> buffer, std::chrono::milliseconds timeout) override;
  // Kills the child (SIGKILL) and reaps it.
  void close() override;
  std::string describe() const override;

  pid_t pid() const { return pid_; }
  // What the child wrote to stderr so far (its last stderrCapacity bytes).
  const std::string& capturedStderr() const { return stderr_; }
  // How the child ended ("exited with status 3", "was killed by signal 9
  // (Killed)"), once it has been reaped.
  const std::optional<std::string>& exitDescription() const { return exit_; }

 private:
  void drainStderr(std::chrono::milliseconds wait);
  bool reap(std::chrono::milliseconds wait);
  [[noreturn]] void childGone(const std::string& event);
  void closeFds();

  std::vector<std::string> argv_;
  std::size_t stderrCapacity_;
  pid_t pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  int stderrFd_ = -1;
  std::string stderr_;
  std::optional<std::string> exit_;
  std::optional<std::string> closedMessage_;
};

}  // namespace loupe::host
