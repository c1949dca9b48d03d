// What the board benches read from the shared models' golden sets.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace loupe::bench {

// The whole file; std::runtime_error naming it when it cannot be read.
inline std::vector<std::uint8_t> readGoldenFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace loupe::bench
