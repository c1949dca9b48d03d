#include "deploy/process_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "deploy/child_spawn.h"

namespace loupe::deploy {

namespace {

// Unlinked as soon as it exists: the output is read back through the
// descriptor, so no interruption can leave the file behind.
class CaptureFile {
 public:
  CaptureFile() {
    char name[] = "/tmp/loupe-process-XXXXXX";
    fd_ = mkostemp(name, O_CLOEXEC);
    if (fd_ < 0)
      throw std::runtime_error(std::string("cannot create a temporary file: ") +
                               std::strerror(errno));
    ::unlink(name);
  }
  ~CaptureFile() { close(fd_); }
  int fd() const { return fd_; }
  std::string contents() const {
    std::string text;
    char buffer[65536];
    off_t offset = 0;
    for (;;) {
      const ssize_t got = pread(fd_, buffer, sizeof buffer, offset);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      text.append(buffer, static_cast<std::size_t>(got));
      offset += got;
    }
    return text;
  }

 private:
  int fd_ = -1;
};

}  // namespace

std::string commandLineForDisplay(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !arg.empty() && arg.find_first_of(" \t\"'\\$`") == std::string::npos;
    out += plain ? arg : "'" + arg + "'";
  }
  return out;
}

ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::filesystem::path& workingDirectory,
                         std::chrono::milliseconds timeLimit, std::stop_token stop) {
  if (argv.empty()) throw std::invalid_argument("runProcess: empty argument list");
  CaptureFile capture;
  // Its own process group, so a kill reaches what it started too: make's
  // compilers must not go on writing into a folder that is being removed.
  const pid_t pid = spawnChild({argv, workingDirectory, capture.fd()});
  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeLimit;
  int waitStatus = 0;
  for (;;) {
    const pid_t done = waitForChild(pid, &waitStatus, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw std::runtime_error("waitpid failed for " + argv[0]);
    const bool cancelled = stop.stop_requested();
    if (cancelled || std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitForChild(pid, &waitStatus, 0);
      // Until the rest of the group (make's compilers, now init's children)
      // is gone too, so the caller can remove their folder; bounded anyway.
      const auto groupDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      while (kill(-pid, 0) == 0 && std::chrono::steady_clock::now() < groupDeadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      (cancelled ? result.cancelled : result.timedOut) = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(waitStatus)) result.exitCode = WEXITSTATUS(waitStatus);
  if (WIFSIGNALED(waitStatus)) result.signal = WTERMSIG(waitStatus);
  result.output = capture.contents();
  return result;
}

}  // namespace loupe::deploy
