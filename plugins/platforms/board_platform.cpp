#include "platforms/board_platform.h"

#include "platforms/board_firmware.h"

namespace loupe::platforms {

BoardPlatform::BoardPlatform(deploy::BoardDescription board,
                             std::vector<deploy::ProjectFile> boardFiles)
    : board_(std::move(board)), boardFiles_(std::move(boardFiles)) {}

std::string BoardPlatform::name() const {
  return boardPlatformName(board_);
}

std::vector<memory::MemoryRegion> BoardPlatform::memoryRegions(const ir::Graph& model) const {
  return boardMemoryRegions(board_, model);
}

std::vector<deploy::ProjectFile> BoardPlatform::projectFiles(
    const codegen::CompiledModel& model) const {
  return boardFirmwareProject(board_, boardFiles_, model);
}

std::optional<std::string> BoardPlatform::explainBuildFailure(const std::string& output) const {
  return explainMemoryOverflow(board_, output);
}

std::optional<std::string> BoardPlatform::checkFits(const codegen::CompiledModel& model) const {
  return boardFitProblem(board_, model);
}

}  // namespace loupe::platforms
