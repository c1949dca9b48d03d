// Registers the platforms this plugin provides: `host`, one QEMU platform per
// embedded board (qemu_mps2_an385 → `qemu-mps2-an385`) and per board folder
// installed beside the executable (board_folders.h), and `serial`.
#pragma once

#include <string>
#include <vector>

#include "project/platform_registry.h"

namespace loupe::platforms {

// Returns why installed board folders were skipped (see addBoardFolders).
std::vector<std::string> registerBuiltinPlatforms(project::PlatformRegistry& registry);

// A registry holding the built-in platforms and the installed board folders.
project::PlatformRegistry builtinPlatformRegistry();

}  // namespace loupe::platforms
