// A board's board.json (plugins/platforms/<board>/), read for the host side
// of a deployment: how to compile for the board, which QEMU machine runs it
// and what its memories can hold.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace loupe::test {

struct BoardMemory {
  std::string name;
  std::uint64_t origin = 0;
  std::uint64_t size = 0;
  std::vector<std::string> holds;  // "code", "data", "stack"
};

struct BoardDescription {
  std::filesystem::path directory;  // where board.json, board.h and linker.ld are
  std::string name;
  std::string cpu;       // -mcpu
  std::string floatAbi;  // -mfloat-abi
  std::uint64_t clockHz = 0;
  std::uint64_t uart0Base = 0;
  std::string qemuExecutable;
  std::string qemuMachine;
  std::vector<BoardMemory> memories;

  // The memory holding `what`; throws std::runtime_error when none does.
  const BoardMemory& memoryHolding(const std::string& what) const;
};

// Throws std::runtime_error naming the file and field when board.json is
// missing or incomplete.
BoardDescription loadBoardDescription(const std::filesystem::path& boardDirectory);

}  // namespace loupe::test
