#include "cli/output_folder.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace loupe::cli {

namespace fs = std::filesystem;

fs::path prepareOutputFolder(const fs::path& folder, const std::string& role) {
  const fs::path path = folder.empty() ? fs::path(".") : folder;
  const auto fail = [&](const std::string& reason) {
    throw std::runtime_error("cannot write into " + role + " " + path.string() + ": " + reason);
  };
  std::error_code error;
  fs::create_directories(path, error);
  if (error) fail(error.message());
  if (!fs::is_directory(path, error)) fail(std::strerror(ENOTDIR));
  // access() answers for this user and also reports a read-only file system.
  if (::access(path.c_str(), W_OK | X_OK) != 0) fail(std::strerror(errno));
  return path;
}

void writeBinaryFile(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace loupe::cli
