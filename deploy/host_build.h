// The host platform's build: a compiled model plus a small native main()
// become an executable that reads its inputs from files and writes its
// outputs to files. Builds are cached by the content of everything that goes
// into them, so running a model again does not rebuild it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "deploy/build_cache.h"

namespace loupe::deploy {

class HostBuildError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct HostBuildOptions {
  std::filesystem::path cacheRoot;  // empty: defaultCacheRoot()
  std::string compiler = "cc";
  std::vector<std::string> flags = {"-O2"};
  // Replaces the generated hostMainSource (tests that drive the model their
  // own way, e.g. with a counting device platform), plus more C files to link.
  std::string mainSource;
  std::vector<codegen::GeneratedFile> extraSources;
};

struct HostBuild {
  std::filesystem::path directory;  // the project folder (sources and executable)
  std::filesystem::path executable;
  bool reused = false;  // found in the cache
  std::string log;      // compiler command line and output
};

// main.c for the host: `model_host IN0.bin ... OUT0.bin ...`; throws
// HostBuildError for a model using a device the host does not provide.
std::string hostMainSource(const codegen::CompiledModel& model);

// Throws HostBuildError with the compiler's output when the build fails.
HostBuild buildHostExecutable(const codegen::CompiledModel& model, const HostBuildOptions& options);

// Runs a host build on one set of inputs (raw bytes in model input order) and
// returns the outputs. Throws HostBuildError with what the program said when
// it fails, crashes or runs too long.
std::vector<std::vector<std::uint8_t>> runHostExecutable(
    const HostBuild& build, const codegen::CompiledModel& model,
    const std::vector<std::vector<std::uint8_t>>& inputs);

}  // namespace loupe::deploy
