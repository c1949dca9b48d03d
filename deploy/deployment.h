// One-click deploy (rfcs/003): generate the platform's project for a
// compiled model, build it (cached), flash it (start it), open the RPC
// session, and then run the model on the board as often as wanted: send the
// inputs, run, receive the outputs and the per-operator profile. The CLI's
// `loupec run --platform ...` and the GUI's "Run on board" are this class.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "debug_tensor_stream.h"
#include "deploy/firmware_build.h"
#include "deploy/platform.h"
#include "deploy/run_profile.h"
#include "rpc_client.h"
#include "session.h"

namespace loupe::deploy {

struct DeploymentOptions {
  FirmwareBuildOptions build;
  StartOptions start;
  host::SessionOptions session;
  // Tests put a fault-injecting transport between the session and the
  // platform's link with this; empty: the session uses the link itself.
  std::function<std::unique_ptr<host::Transport>(host::Transport& link)> interpose;
  // Cancel: a stop requested here kills the build, ends any wait for the
  // board and is checked between stages; what was under way then throws
  // DeployError Cancelled (or host::SessionError Cancelled mid-call).
  std::stop_token stop{};
};

// Wall-clock seconds of each stage, for progress reports and the benchmark.
struct DeploymentTimes {
  double generate = 0;  // writing the project (0 when the build was cached)
  double build = 0;     // make (0 when cached)
  double flash = 0;     // starting the firmware, connecting, the handshake
  double run = 0;       // the last run: inputs, run, outputs and profile
};

class Deployment {
 public:
  using Bytes = std::vector<std::uint8_t>;
  // stage: "generate", "build", "flash", "connect", "run", "board" (a LOG
  // line from the board); detail: for people.
  using Progress = std::function<void(const std::string& stage, const std::string& detail)>;

  // Generates, builds, starts and connects. Throws DeployError (tools, build,
  // fit, start, a board serving another model) or host::SessionError.
  Deployment(const Platform& platform, const codegen::CompiledModel& model,
             const DeploymentOptions& options = {}, Progress progress = {});
  ~Deployment();
  Deployment(const Deployment&) = delete;
  Deployment& operator=(const Deployment&) = delete;

  // Runs the model once on `inputs` (model input order) and returns its
  // outputs; the profile of this run is then profile(). Throws DeployError
  // for wrong input sizes or a failing model, host::SessionError for the link.
  std::vector<Bytes> run(const std::vector<Bytes>& inputs);
  // Resets the model's variable tensors (recurrent models) on the board.
  void resetState();

  const RunProfile& profile() const { return profile_; }
  // A debug build's last run (codegen::CompiledModel::debugTensors): every
  // tensor the board sent, by tensor index of the compiled graph; empty
  // otherwise.
  const std::map<std::uint32_t, host::StreamedTensor>& deviceTensors() const { return tensors_; }
  // The LOG lines the board sent so far (also reported as stage "board").
  const std::vector<std::string>& boardLogs() const { return boardLogs_; }
  const DeploymentTimes& times() const { return times_; }
  const FirmwareBuild& firmware() const { return firmware_; }
  const host::BoardInfo& board() const { return session_->boardInfo(); }
  const host::SessionStatistics& statistics() const { return session_->statistics(); }
  // The platform's link (a QemuLink, a PipeTransport, ...), and what the
  // session talks through (the interposed transport, if any).
  host::Transport& link() { return *link_; }
  host::Transport& transport() { return interposed_ ? *interposed_ : *link_; }
  host::Session& session() { return *session_; }

 private:
  void report(const std::string& stage, const std::string& detail) const;
  // Throws DeployError Cancelled if a stop was requested, naming the stage.
  void stopIfCancelled(const std::string& stage) const;
  void checkModel();

  const Platform& platform_;
  const codegen::CompiledModel& model_;
  Progress progress_;
  std::stop_token stop_;
  FirmwareBuild firmware_;
  std::unique_ptr<host::Transport> link_;
  std::unique_ptr<host::Transport> interposed_;
  std::unique_ptr<host::Session> session_;
  std::unique_ptr<host::RpcClient> rpc_;
  host::ModelInfo modelInfo_;
  RunProfile profile_;
  std::map<std::uint32_t, host::StreamedTensor> tensors_;
  DeploymentTimes times_;
  std::vector<std::string> boardLogs_;
};

}  // namespace loupe::deploy
