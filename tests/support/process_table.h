// The process table as /proc shows it, for tests that check that a child
// (QEMU, make, a compiler) is gone: by PID and start time, so a reused PID
// does not count as the same process.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace loupe::test {

struct ProcessStat {
  pid_t pid = 0;
  pid_t parent = 0;
  pid_t group = 0;
  char state = '?';     // R, S, D, Z (zombie), ...
  std::string command;  // the executable's name, at most 15 characters
  unsigned long long startTime = 0;
};

std::optional<ProcessStat> readProcessStat(pid_t pid);
std::vector<ProcessStat> allProcesses();

// Its live (not zombie) child running `command`, if any.
std::optional<ProcessStat> liveChild(pid_t parent, const std::string& command);

// Gone: no such PID, a zombie not yet reaped, or the PID now someone else's.
bool isGone(const ProcessStat& process);

// The live (not zombie) members of a process group.
int liveGroupMembers(pid_t group);

// The entries of `folder` whose names start with `prefix`.
std::vector<std::filesystem::path> entriesStartingWith(const std::filesystem::path& folder,
                                                       const std::string& prefix);

}  // namespace loupe::test
