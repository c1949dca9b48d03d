// A platform served by its own program (rfcs/003's Project API): a folder
// with platform.json
//   {"name": "my-board", "description": "...", "server": ["./api_server.py"]}
// whose server (any language, started from that argument list in the
// folder) answers JSON-RPC 2.0 on its stdin/stdout (docs/project_api.md):
// server_info_query (its project options and the board's -mcpu),
// generate_project and build (from the model folder Loupe writes), flash,
// and open/read/write/close_transport for the session's bytes. Dropping
// such a folder into a boards folder adds the platform without rebuilding
// Loupe. Every call has a time-out; a failing server's errors name the
// platform and the method.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "deploy/platform.h"

namespace loupe::platforms {

// How long each of a server's calls may take (docs/project_api.md).
struct ProjectApiTimeouts {
  std::chrono::milliseconds info{10000};
  std::chrono::milliseconds generate{60000};
  std::chrono::milliseconds build{600000};
  std::chrono::milliseconds flash{120000};
  std::chrono::milliseconds open{30000};
};

class ProjectApiPlatform : public deploy::Platform {
 public:
  using Timeouts = ProjectApiTimeouts;

  // Reads folder/platform.json; throws std::runtime_error naming what is
  // wrong with it (or with its server's path).
  explicit ProjectApiPlatform(std::filesystem::path folder, Timeouts timeouts = {});

  std::string name() const override { return name_; }
  std::string description() const override { return description_; }
  std::vector<deploy::ToolRequirement> tools() const override { return {}; }
  // From server_info_query, asked once; empty when the server fails it.
  std::string cpu() const override;
  std::vector<deploy::ProjectOption> projectOptions() const override;
  // The server_info_query failure, if any.
  std::string problem() const override;

  // The model folder given to generate_project: model/ (the generated C),
  // runtime/ (Loupe's C runtime), model_descriptor.c (the model for the RPC
  // server), and firmware/ (Loupe's firmware library: the RPC firmware
  // template, the Cortex-M start-up code and UART drivers), for the server
  // to use as it likes.
  std::vector<deploy::ProjectFile> projectFiles(const codegen::CompiledModel& model) const override;
  std::string firmwarePath() const override { return "project"; }
  bool buildsProjectItself() const override { return true; }
  void buildProject(const std::filesystem::path& modelDirectory,
                    const std::filesystem::path& projectDirectory,
                    const deploy::ProjectBuildContext& context) const override;
  // flash, then open_transport: the session talks through the server.
  std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                         const deploy::StartOptions& options) const override;

 private:
  struct Info {
    std::string cpu;
    std::vector<deploy::ProjectOption> options;
    std::string problem;
  };
  const Info& info() const;

  std::filesystem::path folder_;
  std::string name_;
  std::string description_;
  std::vector<std::string> server_;  // argv, argv[0] resolved against the folder
  Timeouts timeouts_;
  mutable std::once_flag infoOnce_;
  mutable Info info_;
};

}  // namespace loupe::platforms
