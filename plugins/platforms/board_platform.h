// What every Cortex-M board platform shares, emulated or real: the board's
// board.json and folder files, the firmware project (board_firmware.h), the
// check that a model fits before building and the explanation of a linker
// overflow. QemuPlatform starts the firmware under QEMU,
// FlashedBoardPlatform writes it into a real board.
#pragma once

#include "deploy/board_description.h"
#include "deploy/platform.h"

namespace loupe::platforms {

class BoardPlatform : public deploy::Platform {
 public:
  // `boardFiles`: the board folder's board.h, linker.ld, board_init.c, ...
  // by file name, copied to platform/ of the project.
  BoardPlatform(deploy::BoardDescription board, std::vector<deploy::ProjectFile> boardFiles);

  std::string name() const override;  // qemu_mps2_an385 -> qemu-mps2-an385
  std::string description() const override { return board_.description; }
  std::string cpu() const override { return board_.cpu; }
  std::vector<memory::MemoryRegion> memoryRegions(const ir::Graph& model) const override;
  std::vector<deploy::ProjectFile> projectFiles(const codegen::CompiledModel& model) const override;
  std::string firmwarePath() const override { return "build/firmware.elf"; }
  std::optional<std::string> explainBuildFailure(const std::string& output) const override;
  std::optional<std::string> checkFits(const codegen::CompiledModel& model) const override;

  const deploy::BoardDescription& board() const { return board_; }

 protected:
  deploy::BoardDescription board_;
  std::vector<deploy::ProjectFile> boardFiles_;
};

}  // namespace loupe::platforms
