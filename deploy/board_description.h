// A board's board.json (plugins/platforms/<board>/): how to compile for the
// board, which QEMU machine runs it or how it is flashed, and what its
// memories can hold. Read by the board platforms and by the tests that build
// firmware by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::deploy {

struct BoardMemory {
  std::string name;  // as the linker script names the region: "DTCM"
  std::uint64_t origin = 0;
  std::uint64_t size = 0;
  // What the memory may hold: "code" (and the constants beside it), "data"
  // (.data, .bss and the model's workspace), "stack", "workspace" and
  // "constants" (a memory the model's pools and constant arrays may use
  // besides those: the plan places them, memory_region.h).
  std::vector<std::string> holds;
  bool holdsKind(std::string_view kind) const;
};

// A program that writes firmware into a real board's flash, as board.json
// lists it: "openocd" (with the board's configuration arguments),
// "st-flash" or "dfu-util".
struct BoardProgrammer {
  std::string name;
  std::vector<std::string> arguments;  // openocd: -f interface/... -f target/...
};

// How a real board gets its firmware and talks to the host.
struct BoardFlash {
  std::uint64_t origin = 0;                  // where the image goes (BIN files carry no address)
  std::string serialPort;                    // for people: which port the board's UART is on
  std::vector<BoardProgrammer> programmers;  // the first is the default
};

struct BoardDescription {
  std::string name;         // the folder's name: "qemu_mps3_an547"
  std::string description;  // one line for people
  std::string cpu;          // -mcpu
  std::string floatAbi;     // -mfloat-abi
  std::uint64_t clockHz = 0;
  std::uint64_t uart0Base = 0;
  std::string uartDriver = "cmsdk_uart";    // plugins/platforms/uarts/<driver>.c
  std::string fpu;                          // -mfpu, empty: the compiler's choice for the cpu
  std::uint64_t rpcArenaBytes = 64 * 1024;  // the RPC server's ALLOC arena
  // The stack the firmware keeps free at the top of its data memory (the
  // linker script's STACK_BYTES where it reserves one).
  std::uint64_t stackBytes = 4096;
  // Emulated boards: the QEMU that runs them. Real boards: how to flash them.
  std::string qemuExecutable;
  std::string qemuMachine;
  std::optional<BoardFlash> flash;
  std::vector<BoardMemory> memories;  // fastest first

  bool emulated() const { return !qemuMachine.empty(); }

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
