#include "deploy/interrupt_cleanup.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace loupe::deploy {

namespace fs = std::filesystem;

namespace {

// Lock-free slots: registering must not wait on the cleanup thread.
std::array<std::atomic<pid_t>, 64> childGroups{};

// Never destroyed: the cleanup thread may still use it while main() returns.
struct FolderList {
  std::mutex mutex;
  std::vector<fs::path> folders;
};
FolderList& folderList() {
  static FolderList* list = new FolderList;
  return *list;
}

bool anyGroupAlive(const std::vector<pid_t>& groups) {
  for (pid_t group : groups) {
    const bool stillRegistered = std::any_of(childGroups.begin(), childGroups.end(),
                                             [group](const auto& slot) { return slot == group; });
    if (stillRegistered && ::kill(-group, 0) == 0) return true;
  }
  return false;
}

// Set once an interrupt arrived: the rest of the program, seeing its
// children killed, may fail and return from main meanwhile; exit() then
// waits here so that the cleanup finishes and the signal ends the process.
std::atomic<bool> interrupted{false};

void waitForTheInterruptToEndTheProcess() {
  while (interrupted.load()) std::this_thread::sleep_for(std::chrono::seconds(1));
}

// remove_all gives up at the first entry another thread removed first (the
// work's own cleanup runs concurrently): go on until the folder is gone.
void removeTree(const fs::path& folder) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::error_code error;
    fs::remove_all(folder, error);
    if (!fs::exists(fs::symlink_status(folder, error))) return;
  }
}

[[noreturn]] void cleanUpThenDie(int signal) {
  interrupted = true;
  std::vector<pid_t> groups;
  for (const auto& slot : childGroups) {
    if (const pid_t group = slot.load(); group > 0) {
      ::kill(-group, SIGKILL);
      groups.push_back(group);
    }
  }
  // Until whoever waits for them has reaped them (or a bound), so no
  // compiler still writes into a folder being removed.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (anyGroupAlive(groups) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::vector<fs::path> folders;
  {
    std::lock_guard lock(folderList().mutex);
    folders = folderList().folders;
  }
  for (const fs::path& folder : folders) removeTree(folder);
  // End the way the signal would have ended the process (exit status, core).
  ::signal(signal, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, signal);
  pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  ::raise(signal);
  ::_exit(128 + signal);
}

sigset_t interruptSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, signal);
  return set;
}

}  // namespace

void installInterruptCleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    const sigset_t set = interruptSignals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::atexit(waitForTheInterruptToEndTheProcess);
    std::thread([set] {
      int signal = 0;
      while (sigwait(&set, &signal) != 0) {
      }
      cleanUpThenDie(signal);
    }).detach();
  });
}

bool interruptReceived() {
  return interrupted.load();
}

void registerChildGroup(pid_t group) {
  for (auto& slot : childGroups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, group)) return;
  }
}

void unregisterChildGroup(pid_t group) {
  for (auto& slot : childGroups) {
    pid_t expected = group;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

TemporaryFolderRegistration::TemporaryFolderRegistration(fs::path folder)
    : folder_(std::move(folder)) {
  std::lock_guard lock(folderList().mutex);
  folderList().folders.push_back(folder_);
}

TemporaryFolderRegistration::~TemporaryFolderRegistration() {
  std::lock_guard lock(folderList().mutex);
  auto& folders = folderList().folders;
  if (auto it = std::find(folders.begin(), folders.end(), folder_); it != folders.end()) {
    folders.erase(it);
  }
}

int sweepAbandonedFolders(const fs::path& parent, std::string_view prefix) {
  int removed = 0;
  std::error_code error;
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const char* first = name.data() + prefix.size();
    const char* last = name.data() + name.size();
    pid_t owner = 0;
    const auto [next, parseError] = std::from_chars(first, last, owner);
    if (parseError != std::errc() || next == last || *next != '-' || owner <= 0) continue;
    // EPERM: it runs, as another user.
    const bool alive = owner == ::getpid() || ::kill(owner, 0) == 0 || errno == EPERM;
    if (alive) continue;
    std::error_code ignored;
    if (fs::remove_all(it->path(), ignored) > 0) ++removed;
  }
  return removed;
}

}  // namespace loupe::deploy
