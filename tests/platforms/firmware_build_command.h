// The compiler command lines the board tests build firmware with by hand,
// the way every firmware for these boards is built: arm-none-eabi-gcc,
// strict C99, no C library (-nostdlib, only libgcc), the board's start-up
// code, vector table, UART driver and board_init.c, its linker script.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "board_description.h"

namespace loupe::test {

// What every firmware for `board` is built with (`optimisation`: "-O2",
// "-Os"); the caller adds its own -I, sources and then -lgcc -o ELF. An
// argument list (posix_spawnp, no shell).
std::vector<std::string> boardFirmwareCommand(const BoardDescription& board,
                                              const std::filesystem::path& platformsDirectory,
                                              const std::string& optimisation);

// The echo firmware (plugins/platforms/templates/echo) for `board`.
std::vector<std::string> echoFirmwareBuildCommand(const BoardDescription& board,
                                                  const std::filesystem::path& platformsDirectory,
                                                  const std::filesystem::path& elf);

}  // namespace loupe::test
