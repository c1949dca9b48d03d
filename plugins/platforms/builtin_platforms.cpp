#include "platforms/builtin_platforms.h"

#include <stdexcept>

#include "deploy/board_description.h"
#include "platforms/board_folders.h"
#include "platforms/host_platform.h"
#include "platforms/platform_files.h"
#include "platforms/qemu_platform.h"
#include "platforms/serial_platform.h"

namespace loupe::platforms {

std::string_view platformFile(std::string_view path) {
  for (const EmbeddedFile& file : platformFiles()) {
    if (file.path == path) return file.bytes;
  }
  throw std::out_of_range("no embedded platform file " + std::string(path));
}

std::vector<std::string> registerBuiltinPlatforms(deploy::PlatformRegistry& registry) {
  registry.add(std::make_shared<HostPlatform>());
  for (const EmbeddedFile& file : platformFiles()) {
    const std::string_view path = file.path;
    const std::string_view suffix = "/board.json";
    if (path.size() <= suffix.size() || !path.ends_with(suffix)) continue;
    const std::string folder(path.substr(0, path.size() - suffix.size()));
    registry.add(std::make_shared<QemuPlatform>(
        deploy::parseBoardDescription(file.bytes, "plugins/platforms/" + std::string(path)),
        folder));
  }
  auto problems = addBoardFolders(registry, installedBoardsDirectory());
  registry.add(std::make_shared<SerialPlatform>());
  return problems;
}

deploy::PlatformRegistry builtinPlatformRegistry() {
  deploy::PlatformRegistry registry;
  registerBuiltinPlatforms(registry);
  return registry;
}

}  // namespace loupe::platforms
