// A real board Loupe builds for, flashes and talks to, described by its
// board.json with a "flash" section (nucleo_l4r5zi, stm32f746g_disco,
// nrf52840_dk): the same firmware project as the emulated boards
// (board_platform.h) plus BIN and HEX images, written into the board by the
// programmer the user picks (flash_programmer.h), then the session on the
// board's serial port.
#pragma once

#include "platforms/board_platform.h"

namespace loupe::platforms {

class FlashedBoardPlatform : public BoardPlatform {
 public:
  // How long a programmer may take before it is stopped.
  static constexpr std::chrono::seconds kFlashTimeLimit{120};

  // `boardFiles`: the board folder's files by name (board.h, linker.ld, ...).
  FlashedBoardPlatform(deploy::BoardDescription board, std::vector<deploy::ProjectFile> boardFiles);

  // Building needs these; the programmer is checked when flashing, since
  // the user picks it.
  std::vector<deploy::ToolRequirement> tools() const override;
  bool usesSerialPort() const override { return true; }
  // programmer (the board's, first the default) and probe_serial.
  std::vector<deploy::ProjectOption> projectOptions() const override;
  // Flashes `firmware` and opens the board's serial port (options.port at
  // options.baud). Throws DeployError: StartFailed (no port), ToolMissing
  // (the programmer, with its Debian package), FlashFailed (the
  // programmer's own output and the likely causes), Cancelled.
  std::unique_ptr<host::Transport> start(const std::filesystem::path& firmware,
                                         const deploy::StartOptions& options) const override;
};

}  // namespace loupe::platforms
