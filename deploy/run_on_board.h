// One run of a model on a board, as `loupec run --platform`, the GUI's Run on
// board and the tests do it: compile with the driver, deploy (generate,
// build, flash, connect: Deployment), run once on the inputs, and check every
// output against the reference interpreter and, when a golden set gave the
// inputs, against TFLite's own outputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "deploy/deployment.h"
#include "deploy/firmware_footprint.h"
#include "deploy/platform_registry.h"
#include "deploy/reference_check.h"
#include "deploy/weight_fault.h"
#include "driver/compilation_diff.h"
#include "driver/compile_driver.h"

namespace loupe::deploy {

struct BoardRunRequest {
  std::shared_ptr<const Platform> platform;
  driver::CompileRequest compile;                 // the imported model, parsed targets, options
  std::vector<std::vector<std::uint8_t>> inputs;  // model input order, checked sizes
  // TFLite's outputs for these inputs (a golden set's), or empty.
  std::vector<std::vector<std::uint8_t>> goldenOutputs;
  DeploymentOptions deployment;
  // "compile", "plan" (the plan fit-first chose, when the plain one did not
  // fit), then Deployment's stages, "size" (the firmware's footprint per
  // memory, board builds only), then "reference".
  Deployment::Progress progress;
  // When set, a model that fits no plan on `platform` is refused naming the
  // smallest of these boards it fits (board_fit.h).
  const PlatformRegistry* knownBoards = nullptr;
  // For tests and demos of the debug run: the board's model gets one byte
  // of this operator's weights changed (weight_fault.h); the reference
  // interpreter keeps the model as imported.
  std::optional<int> corruptOperator;
};

struct BoardRunResult {
  driver::Compilation compilation;
  std::vector<std::vector<std::uint8_t>> outputs;
  RunProfile profile;
  DeploymentTimes times;
  std::string boardName;
  std::filesystem::path firmware;  // the built firmware (empty: nothing built)
  // What the firmware takes in each memory, measured from its link map;
  // none for a host build.
  std::optional<FirmwareFootprint> footprint;
  // Against the reference interpreter, then against the golden outputs.
  std::vector<OutputCheck> checks;
  // A debug build (compile.options.debugTensors): every tensor the board
  // sent, by tensor index of compilation.model.graph; empty otherwise.
  std::map<std::uint32_t, host::StreamedTensor> deviceTensors;
  std::optional<WeightFault> fault;  // what corruptOperator changed

  // Every check agrees: integers byte for byte, float32 within the
  // tolerance (reference_check.h).
  bool outputsAgree() const;
  // Every check agrees byte for byte.
  bool outputsBitExact() const;
};

// Throws std::invalid_argument unless `files` has one entry per tensor of
// `tensors`, each exactly its tensor's bytes; `role` ("input", "golden
// output") names them in the message.
void checkSizes(const ir::Graph& graph, const std::vector<int>& tensors,
                const std::vector<std::vector<std::uint8_t>>& files, const char* role);

// One input per model input, in order, each its tensor's bytes drawn from a
// Mersenne Twister seeded with `seed`: what a run without input files (the
// GUI's default, `loupec diff --platform`) sends.
std::vector<std::vector<std::uint8_t>> randomInputs(const ir::Graph& graph, std::uint32_t seed = 1);

// Throws what the driver and Deployment throw (lowering, planning,
// DeployError, host::SessionError), std::invalid_argument for input or golden
// files of the wrong count or size, and DeployError Cancelled once the
// request's stop token is triggered.
BoardRunResult runOnBoard(BoardRunRequest request);

// One side of a comparison (loupec diff, the GUI's Compare) and, when it
// ran on a board, what the board measured.
struct MeasuredCompilation {
  driver::Compilation compilation;
  std::optional<RunProfile> profile;  // none: compiled only
  std::string boardName;
};

// Compiles `compile`; with a platform, runs it there instead, on
// randomInputs(model), and only if every output agrees with the reference
// interpreter - else std::runtime_error naming `what` ("A") and each output
// that differs. `stop` and `progress` go to the deployment.
MeasuredCompilation compileForComparison(driver::CompileRequest compile,
                                         std::shared_ptr<const Platform> platform,
                                         const std::string& what, std::stop_token stop = {},
                                         Deployment::Progress progress = {});

// Both sides' measured times into `diff`, when both ran on `platform`.
void addMeasuredTimes(driver::CompilationDiff& diff, const MeasuredCompilation& a,
                      const MeasuredCompilation& b, const Platform& platform);

}  // namespace loupe::deploy
