#include "deploy/compiler_cache.h"

#include <cstdlib>

#include "deploy/platform_registry.h"

namespace loupe::deploy {

std::optional<std::string> compilerCache() {
  if (const char* off = std::getenv("LOUPE_NO_CCACHE"); off != nullptr && *off != '\0') {
    return std::nullopt;
  }
  if (!isOnPath("ccache")) return std::nullopt;
  return "ccache";
}

}  // namespace loupe::deploy
