// Registers the platforms this plugin provides: `host`, one QEMU platform per
// embedded board (qemu_mps2_an385 → `qemu-mps2-an385`) and per board folder
// installed beside the executable (board_folders.h), and `serial`.
#pragma once

#include <string>
#include <vector>

#include "deploy/platform_registry.h"

namespace loupe::platforms {

// Returns why installed board folders were skipped (see addBoardFolders).
std::vector<std::string> registerBuiltinPlatforms(deploy::PlatformRegistry& registry);

// A registry holding the built-in platforms and the installed board folders.
deploy::PlatformRegistry builtinPlatformRegistry();

}  // namespace loupe::platforms
