#include "deploy/build_cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>

namespace loupe::deploy {

namespace fs = std::filesystem;

fs::path defaultCacheRoot() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return fs::path(xdg) / "loupe";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return fs::path(home) / ".cache" / "loupe";
  }
  return fs::temp_directory_path() / "loupe-cache";
}

// FNV-1a, twice with different offsets: collisions are not a security
// concern here, only staleness.
std::string contentKey(const std::vector<std::string_view>& parts) {
  std::uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  for (std::string_view part : parts) {
    for (unsigned char c : part) {
      a = (a ^ c) * 0x100000001b3ULL;
      b = (b ^ c) * 0x100000001b3ULL;
    }
    a = (a ^ 0xff) * 0x100000001b3ULL;
    b = (b ^ 0xfe) * 0x100000001b3ULL;
  }
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return text;
}

std::string uniqueSuffix() {
  std::random_device device;
  return std::to_string(::getpid()) + "-" + std::to_string(device());
}

void writeTextFile(const fs::path& path, std::string_view text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void moveIntoCache(const fs::path& work, const fs::path& place, const fs::path& mustExist) {
  std::error_code renameError;
  fs::create_directories(place.parent_path());
  fs::rename(work, place, renameError);
  if (renameError) {
    std::error_code ignored;
    fs::remove_all(work, ignored);
    if (!fs::exists(mustExist)) {
      throw std::runtime_error("cannot move the build into " + place.string() + ": " +
                               renameError.message());
    }
  }
}

}  // namespace loupe::deploy
