// Registers the platforms this plugin provides: `host`, one QEMU platform per
// embedded board (qemu_mps2_an385 → `qemu-mps2-an385`), and `serial`.
#pragma once

#include "project/platform_registry.h"

namespace loupe::platforms {

void registerBuiltinPlatforms(project::PlatformRegistry& registry);

// A registry holding the built-in platforms.
project::PlatformRegistry builtinPlatformRegistry();

}  // namespace loupe::platforms
