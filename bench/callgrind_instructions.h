// Instructions of one inference of a natively built model, counted by
// valgrind's callgrind: repeatable where time on a noisy machine is not.
// Shared by the benchmarks that compare generated code.
#pragma once

#include <filesystem>

#include "codegen/compiled_model.h"
#include "deploy/host_build.h"

namespace loupe::bench {

// Runs `build` under callgrind on the golden set `modelDir`/golden/seed1's
// inputs, writes output<i>.bin into `work` and returns the instructions
// inside tvmgen_<name>_run. Throws std::runtime_error when the run fails.
long long countInstructions(const deploy::HostBuild& build, const codegen::CompiledModel& model,
                            const std::filesystem::path& modelDir,
                            const std::filesystem::path& work);

}  // namespace loupe::bench
