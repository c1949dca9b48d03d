#include "platforms/builtin_platforms.h"

#include <stdexcept>

#include "deploy/board_description.h"
#include "platforms/board_firmware.h"
#include "platforms/board_folders.h"
#include "platforms/flashed_board_platform.h"
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
    auto board =
        deploy::parseBoardDescription(file.bytes, "plugins/platforms/" + std::string(path));
    if (board.emulated()) {
      registry.add(std::make_shared<QemuPlatform>(std::move(board), folder));
    } else {
      registry.add(
          std::make_shared<FlashedBoardPlatform>(std::move(board), embeddedBoardFiles(folder)));
    }
  }
  std::vector<std::string> problems;
  for (const auto& directory : boardFolderSearchPath()) {
    auto more = addBoardFolders(registry, directory);
    problems.insert(problems.end(), more.begin(), more.end());
  }
  registry.add(std::make_shared<SerialPlatform>());
  return problems;
}

deploy::PlatformRegistry builtinPlatformRegistry() {
  deploy::PlatformRegistry registry;
  registerBuiltinPlatforms(registry);
  return registry;
}

}  // namespace loupe::platforms
