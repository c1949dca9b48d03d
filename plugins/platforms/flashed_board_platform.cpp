#include "platforms/flashed_board_platform.h"

#include <algorithm>

#include "deploy/deploy_error.h"
#include "deploy/platform_registry.h"
#include "deploy/process_runner.h"
#include "platforms/flash_programmer.h"
#include "tty_transport.h"

namespace loupe::platforms {

namespace {

using deploy::DeployError;

// The end of a programmer's output: where it says what went wrong.
std::string lastLines(const std::string& text, std::size_t count) {
  std::size_t position = text.size();
  while (position > 0 && (text[position - 1] == '\n' || text[position - 1] == '\r')) --position;
  const std::size_t end = position;
  for (std::size_t lines = 0; position > 0; --position) {
    if (text[position - 1] == '\n' && ++lines == count) break;
  }
  return text.substr(position, end - position);
}

std::string optionOr(const deploy::StartOptions& options, const std::string& name,
                     const std::string& fallback) {
  const auto it = options.options.find(name);
  return it == options.options.end() || it->second.empty() ? fallback : it->second;
}

}  // namespace

FlashedBoardPlatform::FlashedBoardPlatform(deploy::BoardDescription board,
                                           std::vector<deploy::ProjectFile> boardFiles)
    : BoardPlatform(std::move(board), std::move(boardFiles)) {
  if (!board_.flash) {
    throw std::invalid_argument("board " + board_.name + " says nothing about flashing it");
  }
}

std::vector<deploy::ToolRequirement> FlashedBoardPlatform::tools() const {
  return {{"arm-none-eabi-gcc", "gcc-arm-none-eabi"},
          {"arm-none-eabi-ar", "binutils-arm-none-eabi"},
          {"arm-none-eabi-objcopy", "binutils-arm-none-eabi"},
          {"make", "make"}};
}

std::vector<deploy::ProjectOption> FlashedBoardPlatform::projectOptions() const {
  deploy::ProjectOption programmer;
  programmer.name = "programmer";
  programmer.help = "the program that writes the firmware into the board's flash";
  for (const auto& entry : board_.flash->programmers) programmer.choices.push_back(entry.name);
  programmer.defaultValue = programmer.choices.front();
  deploy::ProjectOption probe;
  probe.name = "probe_serial";
  probe.help = "the serial number of the probe to use when several are connected (empty: any)";
  return {programmer, probe};
}

std::unique_ptr<host::Transport> FlashedBoardPlatform::start(
    const std::filesystem::path& firmware, const deploy::StartOptions& options) const {
  if (!std::filesystem::is_regular_file(firmware)) {
    throw DeployError(DeployError::Kind::StartFailed, "cannot flash " + name() + ": the firmware " +
                                                          firmware.string() + " does not exist");
  }
  // Asked before flashing: a missing port found afterwards would leave the
  // user waiting for a flash that leads nowhere.
  if (options.port.empty()) {
    throw DeployError(
        DeployError::Kind::StartFailed,
        name() + " needs its serial port (--port /dev/ttyX): " + board_.flash->serialPort);
  }
  if (std::error_code error; !std::filesystem::exists(options.port, error)) {
    throw DeployError(DeployError::Kind::StartFailed,
                      "the serial port " + options.port + " does not exist: is " + name() +
                          " plugged in? (" + board_.flash->serialPort + ")");
  }
  const std::string chosen =
      optionOr(options, "programmer", board_.flash->programmers.front().name);
  const auto& programmers = board_.flash->programmers;
  const auto programmer = std::find_if(programmers.begin(), programmers.end(),
                                       [&](const auto& entry) { return entry.name == chosen; });
  if (programmer == programmers.end()) {
    std::string known;
    for (const auto& entry : programmers) known += (known.empty() ? "" : ", ") + entry.name;
    throw DeployError(DeployError::Kind::StartFailed,
                      name() + " is flashed with " + known + ", not '" + chosen + "'");
  }
  FlashCommand command;
  try {
    command =
        flashCommand(*programmer, *board_.flash, firmware, optionOr(options, "probe_serial", ""));
  } catch (const std::invalid_argument& e) {
    throw DeployError(DeployError::Kind::StartFailed, e.what());
  }
  if (!deploy::isOnPath(command.arguments.front())) {
    throw DeployError(DeployError::Kind::ToolMissing,
                      "flashing " + name() + " needs " + command.arguments.front() +
                          ", which is not on PATH: install the Debian package " +
                          command.debianPackage);
  }
  const std::string commandLine = deploy::commandLineForDisplay(command.arguments);
  if (options.log) options.log("$ " + commandLine + "\n");
  deploy::ProcessResult result;
  try {
    result = deploy::runProcess(command.arguments, firmware.parent_path(), kFlashTimeLimit,
                                options.stop);
  } catch (const std::exception& e) {
    throw DeployError(DeployError::Kind::FlashFailed,
                      "cannot run " + command.arguments.front() + ": " + e.what());
  }
  if (options.log) options.log(result.output);
  if (result.cancelled) {
    throw DeployError(DeployError::Kind::Cancelled, "cancelled while flashing " + name());
  }
  if (result.timedOut || result.exitCode != 0) {
    const std::string how =
        result.timedOut      ? "did not finish in " + std::to_string(kFlashTimeLimit.count()) + " s"
        : result.signal != 0 ? "was killed by signal " + std::to_string(result.signal)
                             : "failed with exit status " + std::to_string(result.exitCode);
    throw DeployError(DeployError::Kind::FlashFailed,
                      "flashing " + name() + " with " + programmer->name + " " + how + ":\n" +
                          lastLines(result.output, 8) + "\nLikely causes: " +
                          likelyFlashFailureCauses(programmer->name) + ".\n(" + commandLine + ")");
  }
  try {
    return std::make_unique<host::TtyTransport>(options.port, options.baud);
  } catch (const std::exception& e) {
    throw DeployError(DeployError::Kind::StartFailed,
                      name() + " was flashed, but its serial port cannot be opened: " + e.what());
  }
}

}  // namespace loupe::platforms
