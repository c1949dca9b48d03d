// A long-running program started from an argument list (child_spawn.h: never
// a shell, dies with Loupe whatever kills it), its stdout and stderr going to
// a log file: what runs an emulated board while the session talks to it over
// a socket. The destructor kills and reaps it, so no QEMU outlives the run
// that started it. The log stays readable through its descriptor when its
// file has been removed.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace loupe::deploy {

class ChildProcess {
 public:
  // Throws std::runtime_error when the program cannot be started.
  ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& logFile);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // Whether it still runs (reaps it when it has exited).
  bool running();
  // "exited with status 3" / "was killed by signal 9", once it has ended.
  std::optional<std::string> endDescription();
  // The last `maxBytes` of what it printed.
  std::string logTail(std::size_t maxBytes = 2000) const;
  // SIGKILL and reap; idempotent.
  void kill();

 private:
  pid_t pid_ = -1;
  std::optional<int> waitStatus_;
  int logFd_ = -1;
};

}  // namespace loupe::deploy
