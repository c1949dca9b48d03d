// The command that writes a built firmware into a real board's flash, for
// each programmer a board.json may list, and what to tell the user when it
// fails. Always an argument list (deploy::runProcess): paths and serial
// numbers never pass through a shell.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "deploy/board_description.h"

namespace loupe::platforms {

struct FlashCommand {
  std::vector<std::string> arguments;  // arguments[0] is the program
  std::string debianPackage;           // what installs it
};

// The command for `programmer` writing the firmware of `elf` (its .bin
// sibling for the programmers that take raw images) at flash.origin.
// `probeSerial` picks one probe when several are plugged in (empty: any).
// Throws std::invalid_argument for a programmer Loupe does not know or a
// path OpenOCD's command language cannot quote.
FlashCommand flashCommand(const deploy::BoardProgrammer& programmer,
                          const deploy::BoardFlash& flash, const std::filesystem::path& elf,
                          const std::string& probeSerial);

// The programmers Loupe can drive.
const std::vector<std::string>& knownProgrammers();

// What usually makes `programmer` fail, for the error message.
std::string likelyFlashFailureCauses(const std::string& programmer);

}  // namespace loupe::platforms
