#include "deploy/process_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
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

extern char** environ;

namespace loupe::deploy {

namespace {

class TemporaryFile {
 public:
  TemporaryFile() {
    char name[] = "/tmp/loupe-process-XXXXXX";
    fd_ = mkstemp(name);
    if (fd_ < 0)
      throw std::runtime_error(std::string("cannot create a temporary file: ") +
                               std::strerror(errno));
    path_ = name;
  }
  ~TemporaryFile() {
    if (fd_ >= 0) close(fd_);
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  int fd_ = -1;
  std::filesystem::path path_;
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
  TemporaryFile capture;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, capture.fd(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, capture.fd(), STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
  posix_spawn_file_actions_addchdir_np(&actions, workingDirectory.c_str());
#else
#error "posix_spawn_file_actions_addchdir_np is needed (glibc 2.29 or later)"
#endif
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Its own process group, so a kill reaches what it started too: make's
  // compilers must not go on writing into a folder that is being removed.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int status = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (status != 0) {
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(status));
  }
  ProcessResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeLimit;
  int waitStatus = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &waitStatus, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw std::runtime_error("waitpid failed for " + argv[0]);
    const bool cancelled = stop.stop_requested();
    if (cancelled || std::chrono::steady_clock::now() > deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &waitStatus, 0);
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
  std::ifstream in(capture.path(), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  result.output = text.str();
  return result;
}

}  // namespace loupe::deploy
