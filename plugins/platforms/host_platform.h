// `host`: the firmware built natively with the host's C compiler and run as a
// child process, its RPC server on stdin/stdout. The default platform; it
// needs nothing beyond a C compiler, and profiles in nanoseconds.
#pragma once

#include "project/platform.h"

namespace loupe::platforms {

class HostPlatform : public project::Platform {
 public:
  std::string name() const override { return "host"; }
  std::string description() const override;
  std::vector<project::ToolRequirement> tools() const override;
  std::vector<project::ProjectFile> projectFiles(
      const codegen::CompiledModel& model) const override;
  std::string firmwarePath() const override { return "build/model_rpc"; }
  std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                         const project::StartOptions& options) const override;
};

}  // namespace loupe::platforms
