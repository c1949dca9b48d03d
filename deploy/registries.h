// The targets and platforms an app offers, built once at start-up from the
// plugins (loupec's main, the GUI's builtinRegistries()) and lent to what
// compiles and deploys, so nothing builds a registry of its own.
#pragma once

#include <string>
#include <vector>

#include "deploy/platform_registry.h"
#include "target/target_registry.h"

namespace loupe::deploy {

struct Registries {
  target::TargetRegistry targets;
  PlatformRegistry platforms;
  // Installed board folders that were left out, and why (loupec platforms).
  std::vector<std::string> skippedBoards;
};

}  // namespace loupe::deploy
