#include "platforms/board_folders.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "deploy/board_description.h"
#include "platforms/qemu_platform.h"

namespace loupe::platforms {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.filename().string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
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
    if (entry.is_directory(error) && fs::exists(entry.path() / "board.json", error)) {
      folders.push_back(entry.path());
    }
  }
  std::sort(folders.begin(), folders.end());  // the same order on every file system
  for (const fs::path& folder : folders) {
    try {
      auto board = deploy::parseBoardDescription(readText(folder / "board.json"), "board.json");
      std::vector<deploy::ProjectFile> files;
      for (const char* name : {"board.h", "linker.ld"}) {
        files.push_back({name, readText(folder / name)});
      }
      auto platform = std::make_shared<QemuPlatform>(std::move(board), std::move(files));
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

}  // namespace loupe::platforms
