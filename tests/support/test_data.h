// Where the tests find their data: the project's own copy of the reference
// models (tests/data/models) and, when present, ../shared with the per-tensor
// golden dumps that the project does not copy.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace loupe::test {

std::filesystem::path modelsDir();

// ../shared/models when it exists (holds the golden tensors/ folders).
std::optional<std::filesystem::path> sharedModelsDir();

// The whole file; throws std::runtime_error naming the file when unreadable.
std::vector<std::uint8_t> readBytes(const std::filesystem::path& path);

}  // namespace loupe::test
