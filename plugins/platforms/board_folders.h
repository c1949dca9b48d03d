// Boards added without rebuilding Loupe: a folder with the board's
// board.json, board.h, linker.ld and any board_init.c, as
// plugins/platforms/<board>/ has, under share/loupe/boards of the
// installation. Each becomes a QEMU platform (board.json has "qemu") or a
// flashed real board ("flash"), built with the embedded start-up code, UART
// drivers and firmware template. A folder with a platform.json instead is a
// Project API platform (project_api_platform.h): its own server generates,
// builds, flashes and carries the session's bytes.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "deploy/platform_registry.h"

namespace loupe::platforms {

// <folder of the running executable>/../share/loupe/boards: found from the
// executable, so an installed tree works wherever it is unpacked. Empty when
// the executable's path cannot be read.
std::filesystem::path installedBoardsDirectory();

// The folders searched for board folders: the installation's, then each of
// $LOUPE_BOARDS_PATH (colon-separated).
std::vector<std::filesystem::path> boardFolderSearchPath();

// The platform of one board folder (board.json, board.h, linker.ld, ...);
// throws std::runtime_error saying what is wrong with it.
std::shared_ptr<deploy::Platform> boardPlatform(const std::filesystem::path& folder);

// Adds a platform to `registry` for every folder of `directory` with a
// board.json. A folder whose board is malformed or incomplete, or whose
// platform name is registered already (the built-in boards keep theirs), is
// skipped with a message naming it; the messages are returned. Nothing
// happens when `directory` does not exist.
std::vector<std::string> addBoardFolders(deploy::PlatformRegistry& registry,
                                         const std::filesystem::path& directory);

}  // namespace loupe::platforms
