// Generate and build (rfcs/003's Project API): a platform's project for a
// compiled model is written to a folder and built there with `make`. The
// folder is a complete project the user can keep, read and rebuild by hand.
// Builds land in the build cache, keyed by every file of the project, so
// running the same model on the same platform again skips the build.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <stop_token>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "deploy/platform.h"

namespace loupe::deploy {

struct FirmwareBuildOptions {
  std::filesystem::path cacheRoot;  // empty: defaultCacheRoot()
  int jobs = 2;                     // make -j
  std::chrono::milliseconds timeLimit = std::chrono::minutes(10);
  std::stop_token stop{};  // a stop kills make: DeployError Cancelled
  // The platform's project options (StartOptions::options): part of the
  // build for platforms that build their own project.
  std::map<std::string, std::string> options{};
};

struct FirmwareBuild {
  std::filesystem::path directory;  // the project folder
  std::filesystem::path firmware;   // the built program or ELF in it
  bool reused = false;              // found in the cache
  std::string log;                  // the make command and its output
  double generateSeconds = 0;       // generating and writing the project
  double buildSeconds = 0;          // make
};

// Writes the project's files under `directory` (created if needed),
// replacing files of the same names; throws std::runtime_error.
void writeProject(const std::vector<ProjectFile>& files, const std::filesystem::path& directory);

// Generates the platform's project for `model` and builds it (or finds the
// build in the cache). Throws DeployError: DoesNotFit (before anything is
// generated, when the platform's checkFits knows; or the platform's
// explanation of the linker's complaint), ToolMissing or BuildFailed (with
// the compiler's output).
FirmwareBuild buildFirmware(const Platform& platform, const codegen::CompiledModel& model,
                            const FirmwareBuildOptions& options = {});

}  // namespace loupe::deploy
