#include "deploy/platform_registry.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "deploy/deploy_error.h"

namespace loupe::deploy {

void PlatformRegistry::add(std::shared_ptr<const Platform> platform) {
  const auto same = [&](const auto& p) { return p->name() == platform->name(); };
  platforms_.erase(std::remove_if(platforms_.begin(), platforms_.end(), same), platforms_.end());
  platforms_.push_back(std::move(platform));
}

std::shared_ptr<const Platform> PlatformRegistry::find(const std::string& name) const {
  for (const auto& platform : platforms_) {
    if (platform->name() == name) return platform;
  }
  std::ostringstream message;
  message << "unknown platform '" << name << "'; known platforms:";
  for (const auto& known : names()) message << " " << known;
  throw DeployError(DeployError::Kind::UnknownPlatform, message.str());
}

std::vector<std::string> PlatformRegistry::names() const {
  std::vector<std::string> result;
  for (const auto& platform : platforms_) result.push_back(platform->name());
  return result;
}

bool isOnPath(const std::string& program) {
  namespace fs = std::filesystem;
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::istringstream directories(path != nullptr ? path : "/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    if (directory.empty()) directory = ".";
    const fs::path candidate = fs::path(directory) / program;
    if (::access(candidate.c_str(), X_OK) == 0 && !fs::is_directory(candidate)) return true;
  }
  return false;
}

std::vector<ToolRequirement> missingTools(const Platform& platform) {
  std::vector<ToolRequirement> missing;
  for (const auto& tool : platform.tools()) {
    if (!isOnPath(tool.program)) missing.push_back(tool);
  }
  return missing;
}

void requireTools(const Platform& platform) {
  const auto missing = missingTools(platform);
  if (missing.empty()) return;
  std::ostringstream message;
  message << "platform " << platform.name() << " needs";
  for (std::size_t i = 0; i < missing.size(); ++i) {
    message << (i == 0 ? " " : ", ") << missing[i].program << " (install the Debian package "
            << missing[i].debianPackage << ")";
  }
  message << ", which is not on PATH";
  throw DeployError(DeployError::Kind::ToolMissing, message.str());
}

}  // namespace loupe::deploy
