#include "deploy/project_api_client.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <span>
#include <thread>

#include "deploy/child_spawn.h"
#include "fd_io.h"

namespace loupe::deploy {

namespace {

constexpr std::size_t kStderrCapacity = 8 * 1024;
// A response longer than this is not one (read_transport answers are a
// few KB of base64).
constexpr std::size_t kMaxLineBytes = 64 * 1024 * 1024;
constexpr auto kPollSlice = std::chrono::milliseconds(100);

std::string shortened(const std::string& text, std::size_t limit = 200) {
  return text.size() <= limit ? text : text.substr(0, limit) + "...";
}

std::string waitDescription(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "ended";
}

}  // namespace

ProjectApiClient::ProjectApiClient(std::string platform, const std::vector<std::string>& argv,
                                   const std::filesystem::path& workingDirectory)
    : platform_(std::move(platform)) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    throw ProjectApiError(ProjectApiError::Kind::Start,
                          "platform " + platform_ +
                              ": cannot make pipes for its API server: " + std::strerror(errno));
  }
  SpawnRequest request;
  request.argv = argv;
  request.workingDirectory = workingDirectory;
  request.inputFd = in[0];
  request.outputFd = out[1];
  request.errorFd = err[1];
  try {
    pid_ = spawnChild(request);
  } catch (const std::exception& e) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    throw ProjectApiError(ProjectApiError::Kind::Start,
                          "platform " + platform_ + ": its API server: " + e.what());
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  input_ = in[1];
  output_ = out[0];
  errors_ = err[0];
  ::fcntl(errors_, F_SETFL, ::fcntl(errors_, F_GETFL) | O_NONBLOCK);
}

ProjectApiClient::~ProjectApiClient() {
  shutDown();
}

void ProjectApiClient::shutDown() {
  if (pid_ < 0) return;
  // End of input asks the server to finish (and stop what it started);
  // what is still running after a moment is killed with its group.
  if (input_ >= 0) ::close(input_);
  input_ = -1;
  int status = 0;
  for (int i = 0; i < 20; ++i) {
    if (waitForChild(pid_, &status, WNOHANG) == pid_) {
      ::kill(-pid_, SIGKILL);  // what the server left running
      pid_ = -1;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (pid_ >= 0) killServer();
  for (int* fd : {&output_, &errors_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

int ProjectApiClient::killServer() {
  if (input_ >= 0) ::close(input_);
  input_ = -1;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  waitForChild(pid_, &status, 0);
  pid_ = -1;
  return status;
}

void ProjectApiClient::drainStderr() {
  if (errors_ < 0) return;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(errors_, buffer, sizeof buffer);
    if (n <= 0) break;
    stderr_.append(buffer, static_cast<std::size_t>(n));
  }
  if (stderr_.size() > kStderrCapacity) stderr_.erase(0, stderr_.size() - kStderrCapacity);
}

void ProjectApiClient::fail(ProjectApiError::Kind kind, const std::string& method,
                            const std::string& what) {
  drainStderr();
  std::string message = "platform " + platform_ + ": " + method + ": " + what;
  if (kind != ProjectApiError::Kind::Failed) {
    // The server is in an unknown state: end it, and say how it ended.
    if (pid_ >= 0) {
      const int status = killServer();
      if (kind == ProjectApiError::Kind::Crashed)
        message += " (the server " + waitDescription(status) + ")";
    }
    drainStderr();
    if (!stderr_.empty()) {
      const std::size_t start = stderr_.size() > 600 ? stderr_.size() - 600 : 0;
      message += "\nits stderr ends with:\n" + stderr_.substr(start);
    }
  }
  throw ProjectApiError(kind, message);
}

nlohmann::json ProjectApiClient::call(const std::string& method, const nlohmann::json& params,
                                      std::chrono::milliseconds timeout, std::stop_token stop) {
  if (pid_ < 0) fail(ProjectApiError::Kind::Crashed, method, "the API server is not running");
  const std::int64_t id = nextId_++;
  const std::string line =
      nlohmann::json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump(
          -1, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  {
    const host::SigpipeBlock noSigpipe;
    const int error = host::writeAll(
        input_, std::span(reinterpret_cast<const std::uint8_t*>(line.data()), line.size()),
        timeout);
    if (error == EPIPE)
      fail(ProjectApiError::Kind::Crashed, method, "the API server closed its input");
    if (error == ETIMEDOUT) {
      fail(ProjectApiError::Kind::TimedOut, method,
           "the API server took no request for " + std::to_string(timeout.count()) + " ms");
    }
    if (error != 0) fail(ProjectApiError::Kind::Crashed, method, host::errnoText(error));
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::uint8_t buffer[8192];
  for (;;) {
    const auto newline = buffered_.find('\n');
    if (newline != std::string::npos) {
      const std::string text = buffered_.substr(0, newline);
      buffered_.erase(0, newline + 1);
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines
      const nlohmann::json response = nlohmann::json::parse(text, nullptr, false);
      if (response.is_discarded() || !response.is_object() ||
          response.value("jsonrpc", "") != "2.0") {
        fail(ProjectApiError::Kind::Garbage, method,
             "the API server answered with something that is not JSON-RPC 2.0: '" +
                 shortened(text) + "'");
      }
      const auto responseId = response.find("id");
      if (responseId == response.end() || *responseId != id) {
        fail(ProjectApiError::Kind::Garbage, method,
             "the API server answered another request (id " +
                 (responseId == response.end() ? std::string("missing") : responseId->dump()) +
                 ", expected " + std::to_string(id) + ")");
      }
      if (const auto error = response.find("error"); error != response.end()) {
        std::string what = error->is_object() && (*error)["message"].is_string()
                               ? (*error)["message"].get<std::string>()
                               : error->dump();
        fail(ProjectApiError::Kind::Failed, method, what);
      }
      const auto result = response.find("result");
      if (result == response.end()) {
        fail(ProjectApiError::Kind::Garbage, method, "the response has neither result nor error");
      }
      drainStderr();
      return *result;
    }
    if (buffered_.size() > kMaxLineBytes) {
      fail(ProjectApiError::Kind::Garbage, method, "the answer is over 64 MiB without a line end");
    }
    if (stop.stop_requested()) fail(ProjectApiError::Kind::Cancelled, method, "cancelled");
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      fail(ProjectApiError::Kind::TimedOut, method,
           "no answer within " + std::to_string(timeout.count() / 1000.0).substr(0, 5) + " s");
    }
    const auto read = host::readWithPoll(output_, buffer, std::min(left, kPollSlice));
    drainStderr();
    if (read.error != 0) fail(ProjectApiError::Kind::Crashed, method, host::errnoText(read.error));
    if (read.endOfStream)
      fail(ProjectApiError::Kind::Crashed, method, "the API server closed its output");
    buffered_.append(reinterpret_cast<const char*>(buffer), read.bytes);
  }
}

}  // namespace loupe::deploy
