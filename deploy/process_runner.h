// Runs an external program from an argument list (child_spawn.h: never a
// shell string, never outliving Loupe), with its output captured and a time
// limit. Used to call the C compiler and make and to run host firmware.
#pragma once

#include <chrono>
#include <filesystem>
#include <stop_token>
#include <string>
#include <vector>

namespace loupe::deploy {

struct ProcessResult {
  int exitCode = -1;       // the program's exit status, or -1 when it did not exit normally
  int signal = 0;          // the signal that ended it, or 0
  bool timedOut = false;   // killed after the time limit
  bool cancelled = false;  // killed because a stop was requested
  std::string output;      // stdout and stderr, interleaved
};

// Throws std::runtime_error when the program cannot be started (e.g. not on PATH).
// A stop requested on `stop` kills the program within a few milliseconds.
ProcessResult runProcess(const std::vector<std::string>& argv,
                         const std::filesystem::path& workingDirectory,
                         std::chrono::milliseconds timeLimit = std::chrono::minutes(5),
                         std::stop_token stop = {});

// "cc -O2 ..." for logs and error messages (arguments quoted when needed).
std::string commandLineForDisplay(const std::vector<std::string>& argv);

}  // namespace loupe::deploy
