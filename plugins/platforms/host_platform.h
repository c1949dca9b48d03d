// `host`: the firmware built natively with the host's C compiler and run as a
// child process, its RPC server on stdin/stdout. The default platform; it
// needs nothing beyond a C compiler, and profiles in nanoseconds.
#pragma once

#include "deploy/platform.h"

namespace loupe::platforms {

class HostPlatform : public deploy::Platform {
 public:
  std::string name() const override { return "host"; }
  std::string description() const override;
  std::vector<deploy::ToolRequirement> tools() const override;
  std::vector<deploy::ProjectFile> projectFiles(const codegen::CompiledModel& model) const override;
  std::string firmwarePath() const override { return "build/model_rpc"; }
  std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                         const deploy::StartOptions& options) const override;
};

}  // namespace loupe::platforms
