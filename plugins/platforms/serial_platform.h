// `serial`: a board the user flashed with Loupe's generated firmware (from
// `loupec generate` for its board), reached on a tty. Loupe builds nothing;
// it checks over the session that the board serves the model being run.
#pragma once

#include "deploy/platform.h"

namespace loupe::platforms {

class SerialPlatform : public deploy::Platform {
 public:
  std::string name() const override { return "serial"; }
  std::string description() const override;
  std::vector<deploy::ToolRequirement> tools() const override { return {}; }
  bool buildsFirmware() const override { return false; }
  bool usesSerialPort() const override { return true; }
  std::vector<deploy::ProjectFile> projectFiles(const codegen::CompiledModel& model) const override;
  std::string firmwarePath() const override { return {}; }
  std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                         const deploy::StartOptions& options) const override;
};

}  // namespace loupe::platforms
