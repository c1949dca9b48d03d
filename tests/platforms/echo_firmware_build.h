// Builds the echo firmware (plugins/platforms/templates/echo) for one board
// with arm-none-eabi-gcc, the way every firmware for these boards is built:
// strict C99, no C library (-nostdlib, only libgcc), the board's start-up
// code and linker script.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "board_description.h"

namespace loupe::test {

// The compiler command line, an argument list (posix_spawnp, no shell).
std::vector<std::string> echoFirmwareBuildCommand(const BoardDescription& board,
                                                  const std::filesystem::path& platformsDirectory,
                                                  const std::filesystem::path& elf);

}  // namespace loupe::test
