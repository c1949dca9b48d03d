#include "deploy/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "deploy/child_spawn.h"

namespace loupe::deploy {

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::filesystem::path& logFile) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: empty argument list");
  logFd_ = ::open(logFile.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (logFd_ < 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": cannot create " + logFile.string() +
                             ": " + std::strerror(errno));
  }
  try {
    pid_ = spawnChild({argv, {}, logFd_});
  } catch (...) {
    ::close(logFd_);
    throw;
  }
}

ChildProcess::~ChildProcess() {
  kill();
  ::close(logFd_);
}

bool ChildProcess::running() {
  if (pid_ < 0 || waitStatus_) return false;
  int status = 0;
  const pid_t done = waitForChild(pid_, &status, WNOHANG);
  if (done == pid_) {
    waitStatus_ = status;
    return false;
  }
  return done == 0;
}

std::optional<std::string> ChildProcess::endDescription() {
  if (running() || !waitStatus_) return std::nullopt;
  const int status = *waitStatus_;
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "ended";
}

std::string ChildProcess::logTail(std::size_t maxBytes) const {
  struct stat info {};
  if (::fstat(logFd_, &info) != 0) return {};
  const off_t size = info.st_size;
  const off_t start = size > static_cast<off_t>(maxBytes) ? size - static_cast<off_t>(maxBytes) : 0;
  std::string text(static_cast<std::size_t>(size - start), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t got =
        ::pread(logFd_, text.data() + done, text.size() - done, start + static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  text.resize(done);
  return text;
}

void ChildProcess::kill() {
  if (pid_ < 0 || waitStatus_) return;
  // The whole group: whatever the program started goes with it.
  ::kill(-pid_, SIGKILL);
  int status = 0;
  waitForChild(pid_, &status, 0);
  waitStatus_ = status;
}

}  // namespace loupe::deploy
