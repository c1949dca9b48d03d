// Boards added without rebuilding Loupe: a folder with the board's
// board.json, board.h and linker.ld, as plugins/platforms/<board>/ has, under
// share/loupe/boards of the installation. Each becomes a QEMU platform built
// with the embedded start-up code and firmware template.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "deploy/platform_registry.h"

namespace loupe::platforms {

// <folder of the running executable>/../share/loupe/boards: found from the
// executable, so an installed tree works wherever it is unpacked. Empty when
// the executable's path cannot be read.
std::filesystem::path installedBoardsDirectory();

// Adds a QEMU platform to `registry` for every folder of `directory` with a
// board.json. A folder whose board is malformed or incomplete, or whose
// platform name is registered already (the built-in boards keep theirs), is
// skipped with a message naming it; the messages are returned. Nothing
// happens when `directory` does not exist.
std::vector<std::string> addBoardFolders(deploy::PlatformRegistry& registry,
                                         const std::filesystem::path& directory);

}  // namespace loupe::platforms
