// Registers the targets this plugin provides: `c` (the CPU) and `npu` (the
// NPU, Ethos-U55-like).
#pragma once

#include "target/target_registry.h"

namespace loupe::targets {

void registerBuiltinTargets(target::TargetRegistry& registry);

// A registry holding the built-in targets.
target::TargetRegistry builtinTargetRegistry();

}  // namespace loupe::targets
