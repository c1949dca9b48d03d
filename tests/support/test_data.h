// Where the tests find their data: the project's own copy of the reference
// models with their golden sets and per-tensor dumps (tests/data/models), so
// a clone tests itself wherever it is checked out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

namespace loupe::test {

std::filesystem::path modelsDir();

// The whole file; throws std::runtime_error naming the file when unreadable.
std::vector<std::uint8_t> readBytes(const std::filesystem::path& path);

}  // namespace loupe::test
