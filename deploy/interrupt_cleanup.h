// What SIGINT, SIGTERM or SIGHUP to Loupe (Ctrl+C, an IDE's stop button, a
// CI time-out) must not leave behind: the process groups of the programs it
// started (QEMU, make and its compilers, host firmware) and its temporary
// folders. Both are registered here while they exist; a thread that waits for
// those signals kills the groups, removes the folders and then lets the
// signal end the process as it would have. A thread, not a signal handler,
// because removing a folder tree is not async-signal-safe.
// SIGKILL cannot be caught: then the children die by their parent-death
// signal (child_spawn.h) and the folders, named with their owner's PID, are
// swept by the next run (sweepAbandonedFolders).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string_view>

namespace loupe::deploy {

// Call first in main(), before any other thread exists: every later thread
// inherits the blocked signals, so only the cleanup thread receives them.
// Idempotent. Programs that do not call it (tests) keep the default actions.
void installInterruptCleanup();

// Whether an interrupt arrived and its cleanup is under way: what fails
// meanwhile (the build whose make was killed) is its consequence, not an
// error to report.
bool interruptReceived();

// Process groups to SIGKILL on an interrupt (a fixed number; more are only
// covered by their parent-death signal).
void registerChildGroup(pid_t group);
void unregisterChildGroup(pid_t group);

// A folder to remove on an interrupt, for as long as the object lives (it
// does not remove the folder itself).
class TemporaryFolderRegistration {
 public:
  explicit TemporaryFolderRegistration(std::filesystem::path folder);
  ~TemporaryFolderRegistration();
  TemporaryFolderRegistration(const TemporaryFolderRegistration&) = delete;
  TemporaryFolderRegistration& operator=(const TemporaryFolderRegistration&) = delete;

 private:
  std::filesystem::path folder_;
};

// Removes the folders in `parent` named `<prefix><pid>-...` whose PID is not
// a running process: what a Loupe killed by SIGKILL (or a power cut) left.
// Returns how many it removed.
int sweepAbandonedFolders(const std::filesystem::path& parent, std::string_view prefix);

}  // namespace loupe::deploy
