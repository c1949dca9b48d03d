#include "board_description.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace loupe::test {

BoardDescription loadBoardDescription(const std::filesystem::path& boardDirectory) {
  const std::filesystem::path file = boardDirectory / "board.json";
  std::ifstream input(file);
  if (!input) throw std::runtime_error(file.string() + ": cannot be read");
  const std::string text{std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>()};
  BoardDescription board;
  static_cast<deploy::BoardDescription&>(board) =
      deploy::parseBoardDescription(text, file.string());
  board.directory = boardDirectory;
  return board;
}

}  // namespace loupe::test
