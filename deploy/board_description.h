// A board's board.json (plugins/platforms/<board>/): how to compile for the
// board, which QEMU machine runs it and what its memories can hold. Read by
// the QEMU platforms and by the tests that build firmware by hand.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::deploy {

struct BoardMemory {
  std::string name;  // as the linker script names the region: "DTCM"
  std::uint64_t origin = 0;
  std::uint64_t size = 0;
  std::vector<std::string> holds;  // "code", "data", "stack"
};

struct BoardDescription {
  std::string name;         // the folder's name: "qemu_mps3_an547"
  std::string description;  // one line for people
  std::string cpu;          // -mcpu
  std::string floatAbi;     // -mfloat-abi
  std::uint64_t clockHz = 0;
  std::uint64_t uart0Base = 0;
  std::string qemuExecutable;
  std::string qemuMachine;
  std::vector<BoardMemory> memories;

  // The memory holding `what`; throws std::runtime_error when none does.
  const BoardMemory& memoryHolding(const std::string& what) const;
  // The memory the linker calls `region`, or nullptr.
  const BoardMemory* memoryNamed(std::string_view region) const;
};

// Parses board.json text; `source` names it in errors. Throws
// std::runtime_error naming the source and field when it is malformed or
// incomplete.
BoardDescription parseBoardDescription(std::string_view json, const std::string& source);

}  // namespace loupe::deploy
