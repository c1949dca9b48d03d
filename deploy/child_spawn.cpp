#include "deploy/child_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "deploy/interrupt_cleanup.h"

namespace loupe::deploy {

namespace {

// In the forked child only async-signal-safe calls: tell the parent why
// (errno through the close-on-exec pipe) and leave.
[[noreturn]] void failInChild(int reportFd) {
  const int error = errno;
  [[maybe_unused]] const ssize_t ignored = ::write(reportFd, &error, sizeof error);
  ::_exit(127);
}

}  // namespace

pid_t spawnChild(const SpawnRequest& request) {
  if (request.argv.empty()) throw std::invalid_argument("spawnChild: empty argument list");
  // Everything the child needs is prepared before fork: after it, no malloc.
  std::vector<char*> args;
  for (const std::string& a : request.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string directory = request.workingDirectory.string();
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) {
    throw std::runtime_error("cannot start " + request.argv[0] + ": " + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(report[0]);
    ::close(report[1]);
    throw std::runtime_error("cannot start " + request.argv[0] + ": " + std::strerror(error));
  }
  if (pid == 0) {
    ::close(report[0]);
    ::setpgid(0, 0);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) failInChild(report[1]);
    // The parent may have died before prctl took effect.
    if (::getppid() != parent) ::_exit(127);
    // Loupe blocks its interrupt signals for its cleanup thread; the program
    // gets the default mask.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // loupec ignores SIGPIPE; exec keeps an ignored signal ignored, and the
    // programs it runs expect the default.
    struct sigaction defaultAction {};
    defaultAction.sa_handler = SIG_DFL;
    ::sigaction(SIGPIPE, &defaultAction, nullptr);
    const int input = request.inputFd >= 0 ? request.inputFd : ::open("/dev/null", O_RDONLY);
    if (input < 0 || ::dup2(input, STDIN_FILENO) < 0) failInChild(report[1]);
    if (request.outputFd >= 0 && ::dup2(request.outputFd, STDOUT_FILENO) < 0) {
      failInChild(report[1]);
    }
    const int error = request.errorFd >= 0 ? request.errorFd : request.outputFd;
    if (error >= 0 && ::dup2(error, STDERR_FILENO) < 0) failInChild(report[1]);
    if (!directory.empty() && ::chdir(directory.c_str()) != 0) failInChild(report[1]);
    ::execvp(args[0], args.data());
    failInChild(report[1]);
  }
  // Also here, so the group exists before anyone signals it.
  ::setpgid(pid, pid);
  registerChildGroup(pid);
  ::close(report[1]);
  int error = 0;
  ssize_t got;
  do {
    got = ::read(report[0], &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  ::close(report[0]);
  if (got == static_cast<ssize_t>(sizeof error)) {
    int status = 0;
    waitForChild(pid, &status, 0);
    throw std::runtime_error("cannot start " + request.argv[0] + ": " + std::strerror(error));
  }
  return pid;
}

pid_t waitForChild(pid_t pid, int* status, int options) {
  pid_t done;
  do {
    done = ::waitpid(pid, status, options);
  } while (done < 0 && errno == EINTR);
  if (done == pid) unregisterChildGroup(pid);
  return done;
}

}  // namespace loupe::deploy
