// A board folder of the source tree (plugins/platforms/<board>/) for the tests
// that build firmware by hand: its board.json, read by the Project API's
// parser, plus where the folder is.
#pragma once

#include <filesystem>

#include "deploy/board_description.h"

namespace loupe::test {

struct BoardDescription : deploy::BoardDescription {
  std::filesystem::path directory;  // where board.json, board.h and linker.ld are
};

// Throws std::runtime_error naming the file when board.json is missing or
// malformed.
BoardDescription loadBoardDescription(const std::filesystem::path& boardDirectory);

}  // namespace loupe::test
