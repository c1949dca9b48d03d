// A board emulated by qemu-system-arm, described by its board.json: the
// firmware is built with arm-none-eabi-gcc (board_firmware.h: our start-up
// code, vector table, linker script and the board's UART driver) and QEMU
// runs it with the UART on a socket. QEMU runs with -icount, so SysTick
// counts instructions deterministically and the profile's unit is
// instructions.
#pragma once

#include "platforms/board_platform.h"

namespace loupe::platforms {

class QemuPlatform : public BoardPlatform {
 public:
  // 2^kIcountShift ns of virtual time per instruction. At the boards' 25 and
  // 32 MHz a SysTick tick is then under one instruction, fine enough for
  // per-operator times of even the smallest models.
  static constexpr int kIcountShift = 6;

  // `folder`: the board's folder among the embedded platform files.
  QemuPlatform(deploy::BoardDescription board, const std::string& folder);
  // A board from a folder on disk (board_folders.h): `boardFiles` are its
  // board.h, linker.ld and other files, by file name.
  QemuPlatform(deploy::BoardDescription board, std::vector<deploy::ProjectFile> boardFiles);

  std::vector<deploy::ToolRequirement> tools() const override;
  std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                         const deploy::StartOptions& options) const override;
  deploy::ProfileClock profileClock(std::uint32_t tickRate) const override;

  // QEMU's arguments for `firmware`, without the UART socket options.
  std::vector<std::string> qemuArguments(const std::filesystem::path& firmware) const;
};

}  // namespace loupe::platforms
