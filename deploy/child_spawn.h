// Starts an external program from an argument list (fork and execvp, never a
// shell) so that it cannot outlive Loupe: it gets Linux's parent-death signal
// (SIGKILL when the thread that started it ends, which covers Loupe being
// killed by any signal, SIGKILL too), its own process group (so a kill reaches
// what it starts, e.g. make's compilers) and that group is registered with
// interrupt_cleanup.h until it has been reaped. posix_spawn cannot set the
// parent-death signal, hence fork.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace loupe::deploy {

struct SpawnRequest {
  std::vector<std::string> argv;           // argv[0] is looked up on PATH
  std::filesystem::path workingDirectory;  // empty: this process's
  int outputFd = -1;                       // stdout and stderr (-1: this process's)
  int inputFd = -1;                        // stdin (-1: /dev/null)
  int errorFd = -1;                        // stderr apart from stdout (-1: outputFd)
};

// The child's PID, which also names its process group. Throws
// std::runtime_error naming the program when it cannot be started (not on
// PATH, not executable, no such working directory).
// The caller reaps it with waitForChild/reapChild, which unregister the group.
pid_t spawnChild(const SpawnRequest& request);

// waitpid that unregisters the child's group once it is reaped; returns
// waitpid's result (0 with WNOHANG while it runs).
pid_t waitForChild(pid_t pid, int* status, int options);

}  // namespace loupe::deploy
