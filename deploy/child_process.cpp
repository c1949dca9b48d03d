#include "deploy/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace loupe::deploy {

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::filesystem::path& logFile)
    : logFile_(logFile) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: empty argument list");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logFile.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int status = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (status != 0) {
    pid_ = -1;
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(status));
  }
}

ChildProcess::~ChildProcess() {
  kill();
}

bool ChildProcess::running() {
  if (pid_ < 0 || waitStatus_) return false;
  int status = 0;
  const pid_t done = ::waitpid(pid_, &status, WNOHANG);
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
  std::ifstream in(logFile_, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > static_cast<std::streamoff>(maxBytes)
                                   ? size - static_cast<std::streamoff>(maxBytes)
                                   : 0;
  in.seekg(start);
  std::string text(static_cast<std::size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  return text;
}

void ChildProcess::kill() {
  if (pid_ < 0 || waitStatus_) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  waitStatus_ = status;
}

}  // namespace loupe::deploy
