#include "platforms/qemu_platform.h"

#include "deploy/deploy_error.h"
#include "platforms/board_firmware.h"
#include "platforms/qemu_link.h"

namespace loupe::platforms {

QemuPlatform::QemuPlatform(deploy::BoardDescription board, const std::string& folder)
    : BoardPlatform(std::move(board), embeddedBoardFiles(folder)) {}

QemuPlatform::QemuPlatform(deploy::BoardDescription board,
                           std::vector<deploy::ProjectFile> boardFiles)
    : BoardPlatform(std::move(board), std::move(boardFiles)) {}

std::vector<deploy::ToolRequirement> QemuPlatform::tools() const {
  return {{"arm-none-eabi-gcc", "gcc-arm-none-eabi"},
          {"arm-none-eabi-ar", "binutils-arm-none-eabi"},
          {board_.qemuExecutable, "qemu-system-arm"},
          {"make", "make"}};
}

std::vector<std::string> QemuPlatform::qemuArguments(const std::filesystem::path& firmware) const {
  return {"-machine", board_.qemuMachine, "-display", "none", "-monitor", "none",
          // Deterministic virtual time: SysTick then counts instructions.
          "-icount", "shift=" + std::to_string(kIcountShift),
          // The firmware's abort exits QEMU through semihosting.
          "-semihosting-config", "enable=on,target=native", "-kernel", firmware.string()};
}

std::unique_ptr<host::Transport> QemuPlatform::start(const std::filesystem::path& firmware,
                                                     const deploy::StartOptions& options) const {
  if (!std::filesystem::is_regular_file(firmware)) {
    throw deploy::DeployError(
        deploy::DeployError::Kind::StartFailed,
        "cannot start " + name() + ": the firmware " + firmware.string() + " does not exist");
  }
  return std::make_unique<QemuLink>(board_.qemuExecutable, qemuArguments(firmware),
                                    options.startTimeout);
}

deploy::ProfileClock QemuPlatform::profileClock(std::uint32_t tickRate) const {
  // instructions = ticks × 1e9 / (tick rate × 2^shift)
  if (tickRate == 0) return {"instructions", 0.0};
  return {"instructions", 1e9 / (static_cast<double>(tickRate) * (1 << kIcountShift))};
}

}  // namespace loupe::platforms
