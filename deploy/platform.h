// A platform is where a compiled model runs: the native host, an emulated
// board, a board on a serial port (rfcs/003's Project API). The core knows
// only this interface; the platforms themselves are plugins
// (plugins/platforms) registered in platform_registry.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "memory/memory_region.h"

namespace loupe::host {
class Transport;
}

namespace loupe::deploy {

// A program a platform needs, and the Debian package that provides it.
struct ToolRequirement {
  std::string program;        // "arm-none-eabi-gcc"
  std::string debianPackage;  // "gcc-arm-none-eabi"
};

// One file of a generated project, its path relative to the project folder.
struct ProjectFile {
  std::string path;
  std::string text;
};

// How the board's profiler ticks become the profile's unit.
struct ProfileClock {
  std::string unit;  // "ns" or "instructions"
  double unitsPerTick = 1.0;
};

// A setting a platform offers its user (rfcs/003's project options, as
// server_info_query lists them): the CLI's --option NAME=VALUE, a field of
// the GUI's Deploy form.
struct ProjectOption {
  std::string name;                  // "programmer"
  std::string help;                  // one line for people
  std::vector<std::string> choices;  // empty: free text
  std::string defaultValue;          // empty: none
};

// What starting a firmware needs besides the firmware itself.
struct StartOptions {
  std::string port;             // serial and real boards: the tty
  std::uint32_t baud = 115200;  // serial and real boards
  // The platform's project options by name (projectOptions()); a missing
  // one takes its default.
  std::map<std::string, std::string> options;
  // A stop requested here kills a running programmer (DeployError Cancelled).
  std::stop_token stop{};
  // Receives what starting prints for people (a programmer's command line
  // and output); Deployment appends it to the build log.
  std::function<void(const std::string&)> log;
  std::filesystem::path workDirectory;  // a private folder for sockets and logs
  std::chrono::milliseconds startTimeout{10000};
};

// What a platform that builds its own project (buildProject) gets besides
// the folders.
struct ProjectBuildContext {
  std::map<std::string, std::string> options;   // StartOptions::options
  std::function<void(const std::string&)> log;  // for the build log
  std::stop_token stop{};
};

class Platform {
 public:
  virtual ~Platform() = default;

  virtual std::string name() const = 0;         // "host", "qemu-mps3-an547", "serial"
  virtual std::string description() const = 0;  // one line for people
  // Programs that building and starting need (missing ones disable the platform).
  virtual std::vector<ToolRequirement> tools() const = 0;

  // The -mcpu of the board's core ("cortex-m55"), which picks the
  // instruction set the model's kernels are lowered for; empty when the
  // platform does not know it (the host, a board on a serial port).
  virtual std::string cpu() const { return {}; }

  // The board's memories as the memory plan may use them, fastest first
  // (memory_region.h): what is left of each for `model`'s workspace pools
  // and constants after the runtime, I/O buffers, stack and code. Empty:
  // the platform does not know its memories (the host, a board on a serial
  // port); the model then has one workspace pool and constants beside its code.
  virtual std::vector<memory::MemoryRegion> memoryRegions(const ir::Graph& model) const {
    (void)model;
    return {};
  }

  // Whether Loupe builds the firmware (false: a board flashed by the user).
  virtual bool buildsFirmware() const { return true; }
  // Whether start() talks to the board on StartOptions::port at baud.
  virtual bool usesSerialPort() const { return false; }
  // Why the platform cannot be used now beyond missing tools (a Project API
  // server that does not answer), or empty.
  virtual std::string problem() const { return {}; }
  // The settings start() reads from StartOptions::options.
  virtual std::vector<ProjectOption> projectOptions() const { return {}; }
  // Why `model` cannot fit the board, known before anything is built (the
  // memory, its size and the bytes missing), or nothing.
  virtual std::optional<std::string> checkFits(const codegen::CompiledModel& model) const {
    (void)model;
    return std::nullopt;
  }
  // The project for `model`: generated code, the C runtime, the platform's
  // template and a Makefile whose default goal builds firmwarePath().
  virtual std::vector<ProjectFile> projectFiles(const codegen::CompiledModel& model) const = 0;
  virtual std::string firmwarePath() const = 0;  // relative to the project
  // A platform whose project someone else generates and builds (a Project
  // API server) says so here: then buildFirmware writes projectFiles() to
  // <build>/model instead of running make, and buildProject turns that
  // folder into <build>/project, which start() gets as its firmware. Throws
  // DeployError (BuildFailed, Cancelled).
  virtual bool buildsProjectItself() const { return false; }
  virtual void buildProject(const std::filesystem::path& modelDirectory,
                            const std::filesystem::path& projectDirectory,
                            const ProjectBuildContext& context) const {
    (void)modelDirectory;
    (void)projectDirectory;
    (void)context;
  }
  // A build failure the platform can explain better than the compiler's
  // output does (a model that does not fit the board's memory), or nothing.
  virtual std::optional<std::string> explainBuildFailure(const std::string& output) const {
    (void)output;
    return std::nullopt;
  }

  // Flashes (starts) the built firmware and opens the link to its RPC
  // server; `firmware` is empty for platforms that build nothing. Throws
  // DeployError when the firmware cannot be started or reached.
  virtual std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                                 const StartOptions& options) const = 0;

  // The profile's unit for a board whose profiler ticks at tickRate Hz.
  virtual ProfileClock profileClock(std::uint32_t tickRate) const {
    return {"ns", tickRate == 0 ? 0.0 : 1e9 / tickRate};
  }
};

}  // namespace loupe::deploy
