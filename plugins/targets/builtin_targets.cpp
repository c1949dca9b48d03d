#include "targets/builtin_targets.h"

#include "targets/c_target.h"
#include "targets/ethos_u/ethosu_target.h"

namespace loupe::targets {

void registerBuiltinTargets(target::TargetRegistry& registry) {
  registry.add(cTargetKind());
  registry.add(ethos_u::ethosUTargetKind());
}

target::TargetRegistry builtinTargetRegistry() {
  target::TargetRegistry registry;
  registerBuiltinTargets(registry);
  return registry;
}

}  // namespace loupe::targets
