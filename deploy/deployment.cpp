#include "deploy/deployment.h"

#include <chrono>
#include <sstream>

#include "deploy/deploy_error.h"
#include "deploy/mac_peak.h"

namespace loupe::deploy {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string sizes(const std::vector<std::uint32_t>& bytes) {
  std::ostringstream out;
  for (std::size_t i = 0; i < bytes.size(); ++i) out << (i == 0 ? "" : ", ") << bytes[i];
  return "[" + out.str() + "]";
}

}  // namespace

Deployment::Deployment(const Platform& platform, const codegen::CompiledModel& model,
                       const DeploymentOptions& options, Progress progress)
    : platform_(platform), model_(model), progress_(std::move(progress)), stop_(options.stop) {
  if (platform.buildsFirmware()) {
    stopIfCancelled("build");
    report("build", "generating and building the " + platform.name() + " project");
    FirmwareBuildOptions build = options.build;
    if (stop_.stop_possible()) build.stop = stop_;
    build.options = options.start.options;
    firmware_ = buildFirmware(platform, model, build);
    times_.generate = firmware_.generateSeconds;
    times_.build = firmware_.buildSeconds;
    report("build", firmware_.reused ? "reused the cached build in " + firmware_.directory.string()
                                     : "built " + firmware_.firmware.string());
  }
  const auto flashStart = std::chrono::steady_clock::now();
  stopIfCancelled("flash");
  report("flash", "starting the firmware on " + platform.name());
  StartOptions start = options.start;
  if (stop_.stop_possible()) start.stop = stop_;
  // A programmer's command and output go to the build log and the progress
  // lines (the CLI's output, the GUI's Build Log).
  if (!start.log) {
    start.log = [this](const std::string& text) {
      firmware_.log += text;
      std::string line = text;
      while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
      if (!line.empty()) report("flash", line);
    };
  }
  link_ = platform.start(firmware_.firmware, start);
  if (options.interpose) interposed_ = options.interpose(*link_);
  stopIfCancelled("connect");
  report("connect", "handshake over " + transport().describe());
  host::SessionOptions session = options.session;
  if (stop_.stop_possible()) session.stop = stop_;
  session_ = std::make_unique<host::Session>(transport(), session);
  // The board's LOG lines (an abort's reason among them) reach the
  // progress lines as they arrive instead of waiting unread in the session.
  session_->setLogHandler([this](std::string_view line) {
    boardLogs_.emplace_back(line);
    report("board", std::string(line));
  });
  session_->start();
  rpc_ = std::make_unique<host::RpcClient>(*session_);
  checkModel();
  times_.flash = secondsSince(flashStart);
  report("connect", "connected to " + session_->boardInfo().name);
}

Deployment::~Deployment() {
  if (link_) link_->close();
}

void Deployment::report(const std::string& stage, const std::string& detail) const {
  if (progress_) progress_(stage, detail);
}

void Deployment::stopIfCancelled(const std::string& stage) const {
  if (stop_.stop_requested()) {
    throw DeployError(DeployError::Kind::Cancelled, "cancelled before " + stage);
  }
}

void Deployment::checkModel() {
  modelInfo_ = rpc_->modelInfo();
  std::vector<std::uint32_t> inputs, outputs;
  for (int t : model_.graph.inputs)
    inputs.push_back(static_cast<std::uint32_t>(model_.graph.tensor(t).byteSize()));
  for (int t : model_.graph.outputs)
    outputs.push_back(static_cast<std::uint32_t>(model_.graph.tensor(t).byteSize()));
  if (modelInfo_.name != model_.modelName || modelInfo_.inputBytes != inputs ||
      modelInfo_.outputBytes != outputs) {
    throw DeployError(DeployError::Kind::Mismatch,
                      "the board serves model '" + modelInfo_.name + "' with inputs of " +
                          sizes(modelInfo_.inputBytes) + " and outputs of " +
                          sizes(modelInfo_.outputBytes) + " bytes, not '" + model_.modelName +
                          "' with " + sizes(inputs) + " and " + sizes(outputs) +
                          ": flash the firmware generated for this model");
  }
}

std::vector<Deployment::Bytes> Deployment::run(const std::vector<Bytes>& inputs) {
  if (inputs.size() != modelInfo_.inputBytes.size()) {
    throw DeployError(DeployError::Kind::Mismatch,
                      "the model has " + std::to_string(modelInfo_.inputBytes.size()) +
                          " inputs; " + std::to_string(inputs.size()) + " given");
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].size() != modelInfo_.inputBytes[i]) {
      throw DeployError(DeployError::Kind::Mismatch, "input " + std::to_string(i) + " must hold " +
                                                         std::to_string(modelInfo_.inputBytes[i]) +
                                                         " bytes; it holds " +
                                                         std::to_string(inputs[i].size()));
    }
  }
  const auto start = std::chrono::steady_clock::now();
  report("run", "sending " + std::to_string(inputs.size()) + " input(s)");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    rpc_->setInput(static_cast<std::uint8_t>(i), inputs[i]);
  }
  report("run", "running " + model_.modelName +
                    (model_.debugTensors ? " (a debug build: every tensor comes back)" : ""));
  host::DebugTensorStream stream;
  if (model_.debugTensors) {
    session_->setTensorHandler(
        [&stream](std::span<const std::uint8_t> body) { stream.take(body); });
  }
  host::RunResult result;
  try {
    result = rpc_->run();
  } catch (...) {
    session_->setTensorHandler({});
    throw;
  }
  session_->setTensorHandler({});
  tensors_.clear();
  if (model_.debugTensors) tensors_ = stream.finish();
  if (result.modelStatus != 0) {
    std::ostringstream message;
    message << "tvmgen_" << model_.modelName << "_run failed on the board with error 0x" << std::hex
            << result.modelStatus;
    throw DeployError(DeployError::Kind::RunFailed, message.str());
  }
  std::vector<Bytes> outputs;
  for (std::size_t i = 0; i < modelInfo_.outputBytes.size(); ++i) {
    outputs.push_back(rpc_->getOutput(static_cast<std::uint8_t>(i)));
  }
  std::vector<ProfilerEntry> entries;
  for (const host::OperatorProfile& entry : rpc_->getProfile()) {
    entries.push_back({entry.calls, entry.lastTicks});
  }
  const ProfileClock clock = platform_.profileClock(session_->boardInfo().tickRate);
  std::uint64_t runTicks = result.ticks;
  if (model_.debugTensors) {
    // Sending the tensors is no operator's time (TVM_PROFILE_SKIP) and no
    // part of the model's: the run is its operators.
    runTicks = 0;
    for (const ProfilerEntry& entry : entries) runTicks += entry.ticks;
  }
  profile_ = makeRunProfile(model_, entries, runTicks, clock.unit, clock.unitsPerTick);
  if (clock.unit == "instructions") {
    if (const auto peak = peakMacsPerInstruction(platform_.cpu())) profile_.peakMacsPerUnit = *peak;
  }
  times_.run = secondsSince(start);
  return outputs;
}

void Deployment::resetState() {
  rpc_->resetState();
}

}  // namespace loupe::deploy
