#include "deploy/run_on_board.h"

#include <random>
#include <stdexcept>
#include <utility>

#include "deploy/board_fit.h"
#include "deploy/deploy_error.h"
#include "target/target_lowering.h"
#include "target/target_string.h"

namespace loupe::deploy {

void checkSizes(const ir::Graph& graph, const std::vector<int>& tensors,
                const std::vector<std::vector<std::uint8_t>>& files, const char* role) {
  if (files.size() != tensors.size()) {
    throw std::invalid_argument("the model has " + std::to_string(tensors.size()) + " " + role +
                                "(s) but " + std::to_string(files.size()) + " were given");
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    const ir::Tensor& tensor = graph.tensor(tensors[i]);
    if (static_cast<std::int64_t>(files[i].size()) != tensor.byteSize()) {
      throw std::invalid_argument(std::string(role) + " " + std::to_string(i) + " has " +
                                  std::to_string(files[i].size()) + " bytes, but '" + tensor.name +
                                  "' needs " + std::to_string(tensor.byteSize()));
    }
  }
}

bool BoardRunResult::outputsAgree() const {
  if (checks.empty()) return false;
  for (const OutputCheck& check : checks) {
    if (!check.agrees) return false;
  }
  return true;
}

bool BoardRunResult::outputsBitExact() const {
  if (checks.empty()) return false;
  for (const OutputCheck& check : checks) {
    if (!check.bitExact) return false;
  }
  return true;
}

std::vector<std::vector<std::uint8_t>> randomInputs(const ir::Graph& graph, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::vector<std::uint8_t>> inputs;
  for (int t : graph.inputs) {
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(graph.tensor(t).byteSize()));
    for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random() & 0xff);
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

BoardRunResult runOnBoard(BoardRunRequest request) {
  if (!request.platform) throw std::invalid_argument("no platform to run on");
  const ir::Graph& model = request.compile.model;
  checkSizes(model, model.inputs, request.inputs, "input");
  if (!request.goldenOutputs.empty()) {
    checkSizes(model, model.outputs, request.goldenOutputs, "golden output");
  }
  const auto report = [&request](const std::string& stage, const std::string& detail) {
    if (request.progress) request.progress(stage, detail);
  };
  // The reference check needs the model as imported; the driver takes a copy.
  const ir::Graph imported = model;
  BoardRunResult result;
  if (request.corruptOperator) {
    result.fault = corruptWeights(request.compile.model, *request.corruptOperator, request.inputs);
    report("fault", result.fault->describe(imported));
  }
  compileForBoard(request.compile, *request.platform);
  const target::CpuIsa isa = target::cpuIsaFor(request.compile.targets, request.compile.boardCpu);
  report("compile", "compiling " + imported.name + " to C for " +
                        target::targetListString(request.compile.targets) + " (" +
                        std::string(target::cpuIsaName(isa)) + " kernels)");
  const bool inBoardMemories = !request.compile.options.boardMemories.empty();
  // Kept for the search of a board it fits, should this one refuse it.
  std::optional<driver::CompileRequest> forOtherBoards;
  if (request.knownBoards != nullptr && inBoardMemories) forOtherBoards = request.compile;
  try {
    result.compilation = driver::compileModel(std::move(request.compile));
  } catch (const memory::MemoryPlanError& error) {
    // Planned in the board's memories: too large for them is a board's refusal.
    if (!inBoardMemories) throw;
    if (forOtherBoards) report("compile", "looking for a board the model fits");
    throw DeployError(
        DeployError::Kind::DoesNotFit,
        boardRefusal(*request.platform, error, forOtherBoards ? &*forOtherBoards : nullptr,
                     request.knownBoards));
  }
  if (const std::string fit = result.compilation.fit.summary(result.compilation.model);
      !fit.empty()) {
    report("plan", fit);
  }
  if (request.deployment.stop.stop_requested()) {
    throw DeployError(DeployError::Kind::Cancelled, "cancelled after compiling");
  }
  Deployment deployment(*request.platform, result.compilation.model, request.deployment,
                        request.progress);
  result.outputs = deployment.run(request.inputs);
  result.profile = deployment.profile();
  result.deviceTensors = deployment.deviceTensors();
  result.times = deployment.times();
  result.boardName = deployment.board().name;
  result.firmware = deployment.firmware().firmware;
  // Only the board platforms link with a map, always with the Arm toolchain.
  if (!result.firmware.empty()) {
    result.footprint = measureFirmware(result.firmware, "arm-none-eabi-objdump");
    if (result.footprint) {
      for (const std::string& line : footprintLines(*result.footprint)) report("size", line);
    }
  }
  report("reference", "running the reference interpreter");
  result.checks = checkAgainstReference(imported, request.inputs, result.outputs);
  if (!request.goldenOutputs.empty()) {
    for (OutputCheck& check : checkAgainstGolden(imported, result.outputs, request.goldenOutputs)) {
      result.checks.push_back(std::move(check));
    }
  }
  return result;
}

MeasuredCompilation compileForComparison(driver::CompileRequest compile,
                                         std::shared_ptr<const Platform> platform,
                                         const std::string& what, std::stop_token stop,
                                         Deployment::Progress progress) {
  if (!platform) return {driver::compileModel(std::move(compile)), {}, {}};
  BoardRunRequest request;
  request.inputs = randomInputs(compile.model);
  request.compile = std::move(compile);
  request.platform = platform;
  request.deployment.stop = stop;
  request.progress = std::move(progress);
  BoardRunResult run = runOnBoard(std::move(request));
  if (!run.outputsAgree()) {
    std::string why;
    for (const OutputCheck& check : run.checks) {
      if (!check.agrees) why += "\n  " + check.message;
    }
    throw std::runtime_error(what + " on " + platform->name() +
                             ": the outputs differ from the reference interpreter, so its times "
                             "are not compared:" +
                             why);
  }
  return {std::move(run.compilation), std::move(run.profile), std::move(run.boardName)};
}

void addMeasuredTimes(driver::CompilationDiff& diff, const MeasuredCompilation& a,
                      const MeasuredCompilation& b, const Platform& platform) {
  if (!a.profile || !b.profile) return;
  for (const auto& [side, which] :
       {std::pair{&a, driver::DiffSide::A}, std::pair{&b, driver::DiffSide::B}}) {
    driver::setMeasuredTimes(
        diff, which, side->profile->timePerOperator(side->compilation.model.graph.operators.size()),
        side->profile->total, side->profile->unit);
  }
  diff.measuredOn = platform.name() + (a.boardName.empty() ? "" : " (" + a.boardName + ")");
}

}  // namespace loupe::deploy
