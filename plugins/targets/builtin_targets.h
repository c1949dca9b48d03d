// Registers the targets this plugin provides: `c` (the CPU) and `ethos-u`
// (Arm's Ethos-U NPU).
#pragma once

#include "target/target_registry.h"

namespace loupe::targets {

void registerBuiltinTargets(target::TargetRegistry& registry);

// A registry holding the built-in targets.
target::TargetRegistry builtinTargetRegistry();

}  // namespace loupe::targets
