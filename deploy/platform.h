// A platform is where a compiled model runs: the native host, an emulated
// board, a board on a serial port (rfcs/003's Project API). The core knows
// only this interface; the platforms themselves are plugins
// (plugins/platforms) registered in platform_registry.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"

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

// What starting a firmware needs besides the firmware itself.
struct StartOptions {
  std::string port;                     // serial: the tty
  std::uint32_t baud = 115200;          // serial
  std::filesystem::path workDirectory;  // a private folder for sockets and logs
  std::chrono::milliseconds startTimeout{10000};
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

  // Whether Loupe builds the firmware (false: a board flashed by the user).
  virtual bool buildsFirmware() const { return true; }
  // The project for `model`: generated code, the C runtime, the platform's
  // template and a Makefile whose default goal builds firmwarePath().
  virtual std::vector<ProjectFile> projectFiles(const codegen::CompiledModel& model) const = 0;
  virtual std::string firmwarePath() const = 0;  // relative to the project
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
