// The platforms by name. Plugins register theirs at start-up
// (plugins/platforms: registerBuiltinPlatforms), so the CLI and the GUI can
// list and choose them without knowing any of them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "deploy/platform.h"

namespace loupe::deploy {

class PlatformRegistry {
 public:
  // Replaces a platform of the same name.
  void add(std::shared_ptr<const Platform> platform);
  // Throws DeployError(UnknownPlatform) listing the known names.
  std::shared_ptr<const Platform> find(const std::string& name) const;
  std::vector<std::shared_ptr<const Platform>> all() const { return platforms_; }
  std::vector<std::string> names() const;

 private:
  std::vector<std::shared_ptr<const Platform>> platforms_;
};

// The programs of `platform` that are not on PATH.
std::vector<ToolRequirement> missingTools(const Platform& platform);

// Throws DeployError(ToolMissing) naming each missing program and its package.
void requireTools(const Platform& platform);

// Whether `program` is an executable on PATH (or a path to one).
bool isOnPath(const std::string& program);

}  // namespace loupe::deploy
