// The host's side of a Project API server (rfcs/003): a platform's own
// program, written in any language, that Loupe starts from an argument list
// and talks to in JSON-RPC 2.0 over its standard input and output, one
// request and one response per line (docs/project_api.md lists the
// methods). What the server writes to stderr is kept for error messages.
//
// Every call has a time-out; a server that hangs, crashes, or answers
// something that is not a JSON-RPC response to that call fails the call with
// ProjectApiError, whose message names the platform and the method. The
// server runs in its own process group with Linux's parent-death signal
// (child_spawn.h), so it and what it starts (a QEMU) never outlive Loupe.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

namespace loupe::deploy {

class ProjectApiError : public std::runtime_error {
 public:
  enum class Kind {
    Start,     // the server could not be started
    TimedOut,  // no answer within the time-out
    Crashed,   // the server exited or closed its output
    Garbage,   // the answer was not a JSON-RPC response to the request
    Failed,    // a JSON-RPC error: the server could not do it (its message)
    Cancelled  // a stop was requested
  };
  ProjectApiError(Kind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

class ProjectApiClient {
 public:
  // Starts the server. `platform` names it in every error message.
  // Throws ProjectApiError(Start).
  ProjectApiClient(std::string platform, const std::vector<std::string>& argv,
                   const std::filesystem::path& workingDirectory);
  // Closes the server's input, gives it a moment to exit, then kills its
  // process group.
  ~ProjectApiClient();
  ProjectApiClient(const ProjectApiClient&) = delete;
  ProjectApiClient& operator=(const ProjectApiClient&) = delete;

  // Calls `method` with `params` and returns the response's "result".
  nlohmann::json call(const std::string& method, const nlohmann::json& params,
                      std::chrono::milliseconds timeout, std::stop_token stop = {});

  const std::string& platform() const { return platform_; }
  // The last few KB the server wrote to stderr.
  const std::string& stderrText() const { return stderr_; }

 private:
  [[noreturn]] void fail(ProjectApiError::Kind kind, const std::string& method,
                         const std::string& what);
  void drainStderr();
  void shutDown();
  // Closes its input, kills its process group and reaps it; its wait status.
  int killServer();

  std::string platform_;
  pid_t pid_ = -1;
  int input_ = -1;        // the server's stdin
  int output_ = -1;       // its stdout
  int errors_ = -1;       // its stderr
  std::string buffered_;  // bytes after the last complete line
  std::string stderr_;
  std::int64_t nextId_ = 1;
};

}  // namespace loupe::deploy
