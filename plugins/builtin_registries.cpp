#include "builtin_registries.h"

#include "platforms/builtin_platforms.h"
#include "targets/builtin_targets.h"

namespace loupe::plugins {

deploy::Registries builtinRegistries() {
  deploy::Registries registries;
  targets::registerBuiltinTargets(registries.targets);
  registries.skippedBoards = platforms::registerBuiltinPlatforms(registries.platforms);
  return registries;
}

}  // namespace loupe::plugins
