// The flash a firmware ELF takes, as the board benches count it: text + data
// as arm-none-eabi-size prints them.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "deploy/process_runner.h"

namespace loupe::bench {

// std::runtime_error with arm-none-eabi-size's output when it fails.
inline std::size_t elfFlashBytes(const std::filesystem::path& elf) {
  const std::vector<std::string> argv{"arm-none-eabi-size", elf.string()};
  const deploy::ProcessResult size =
      deploy::runProcess(argv, elf.parent_path(), std::chrono::minutes(2));
  if (size.exitCode != 0) {
    throw std::runtime_error(deploy::commandLineForDisplay(argv) + " failed:\n" + size.output);
  }
  std::istringstream lines(size.output);
  std::string header;
  std::getline(lines, header);
  std::size_t text = 0, data = 0;
  lines >> text >> data;
  return text + data;
}

}  // namespace loupe::bench
