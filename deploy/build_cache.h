// The build cache: projects are built in a folder named by the content of
// everything that goes into them, so building the same model for the same
// platform again reuses the first build.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::deploy {

// $XDG_CACHE_HOME/loupe, or ~/.cache/loupe, or the temp folder.
std::filesystem::path defaultCacheRoot();

// A 128-bit hex key of the parts, in order (part boundaries count).
std::string contentKey(const std::vector<std::string_view>& parts);

// "<pid>-<random>": names a private work folder next to its final place.
std::string uniqueSuffix();

// Work folders are "building-<pid>-<random>": the PID lets the next build
// sweep those of a killed Loupe (interrupt_cleanup.h).
inline constexpr std::string_view kWorkFolderPrefix = "building-";

// Writes text to path, creating its folders; throws std::runtime_error.
void writeTextFile(const std::filesystem::path& path, std::string_view text);

// Renames a finished work folder into its place in the cache. When another
// process finished the same build first, drops the work folder and keeps
// theirs. Throws std::runtime_error when neither is there afterwards.
void moveIntoCache(const std::filesystem::path& work, const std::filesystem::path& place,
                   const std::filesystem::path& mustExist);

}  // namespace loupe::deploy
