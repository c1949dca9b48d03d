#include "platforms/board_folders.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "deploy/board_description.h"
#include "platforms/board_firmware.h"
#include "platforms/flashed_board_platform.h"
#include "platforms/project_api_platform.h"
#include "platforms/qemu_platform.h"

namespace loupe::platforms {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.filename().string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The folder's C sources, headers and linker scripts (board.json is read
// apart): what the firmware project copies to platform/.
std::vector<deploy::ProjectFile> boardFolderFiles(const fs::path& folder) {
  std::vector<deploy::ProjectFile> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file(error) ||
        (extension != ".c" && extension != ".h" && extension != ".ld")) {
      continue;
    }
    files.push_back({entry.path().filename().string(), readText(entry.path())});
  }
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.path < b.path; });
  return files;
}

}  // namespace

fs::path installedBoardsDirectory() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return executable.parent_path().parent_path() / "share" / "loupe" / "boards";
}

std::vector<std::string> addBoardFolders(deploy::PlatformRegistry& registry,
                                         const fs::path& directory) {
  std::vector<std::string> problems;
  std::error_code error;
  if (directory.empty() || !fs::is_directory(directory, error)) return problems;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (entry.is_directory(error) && (fs::exists(entry.path() / "board.json", error) ||
                                      fs::exists(entry.path() / "platform.json", error))) {
      folders.push_back(entry.path());
    }
  }
  std::sort(folders.begin(), folders.end());  // the same order on every file system
  for (const fs::path& folder : folders) {
    try {
      std::shared_ptr<deploy::Platform> platform;
      if (!fs::exists(folder / "board.json", error)) {
        platform = std::make_shared<ProjectApiPlatform>(folder);
      } else {
        platform = boardPlatform(folder);
      }
      const auto names = registry.names();
      if (std::find(names.begin(), names.end(), platform->name()) != names.end()) {
        problems.push_back(folder.string() + ": skipped, a platform named " + platform->name() +
                           " exists already");
        continue;
      }
      registry.add(std::move(platform));
    } catch (const std::exception& e) {
      problems.push_back(folder.string() + ": skipped: " + e.what());
    }
  }
  return problems;
}

std::shared_ptr<deploy::Platform> boardPlatform(const fs::path& folder) {
  auto board = deploy::parseBoardDescription(readText(folder / "board.json"), "board.json");
  if (!hasUartDriver(board.uartDriver)) {
    throw std::runtime_error("Loupe has no UART driver '" + board.uartDriver + "'");
  }
  std::vector<deploy::ProjectFile> files = boardFolderFiles(folder);
  for (const char* required : {"board.h", "linker.ld"}) {
    if (std::none_of(files.begin(), files.end(),
                     [&](const auto& file) { return file.path == required; })) {
      throw std::runtime_error(std::string("no ") + required);
    }
  }
  if (board.emulated()) {
    return std::make_shared<QemuPlatform>(std::move(board), std::move(files));
  }
  return std::make_shared<FlashedBoardPlatform>(std::move(board), std::move(files));
}

std::vector<fs::path> boardFolderSearchPath() {
  std::vector<fs::path> directories = {installedBoardsDirectory()};
  if (const char* extra = std::getenv("LOUPE_BOARDS_PATH")) {
    std::string_view list = extra;
    while (!list.empty()) {
      const auto colon = list.find(':');
      const std::string_view item = list.substr(0, colon);
      if (!item.empty()) directories.emplace_back(item);
      list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
    }
  }
  return directories;
}

}  // namespace loupe::platforms
