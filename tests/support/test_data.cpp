#include "test_data.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "test_paths.h"

namespace loupe::test {

std::filesystem::path modelsDir() {
  return std::filesystem::path(LOUPE_TEST_DATA_DIR) / "models";
}

std::vector<std::uint8_t> readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace loupe::test
