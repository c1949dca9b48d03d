// The firmware project of a Cortex-M board, emulated or real: the model, the
// C runtime, our start-up code and vector table, the board's UART driver and
// board files, the RPC firmware template and a Makefile. QemuPlatform and
// FlashedBoardPlatform generate the same project; only how the firmware is
// started differs. Also what both know about a model that does not fit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "codegen/compiled_model.h"
#include "deploy/board_description.h"
#include "deploy/platform.h"

namespace loupe::platforms {

// The board folder's files among the embedded platform files (board.h,
// linker.ld, board_init.c, ...), by file name; board.json is left out.
std::vector<deploy::ProjectFile> embeddedBoardFiles(const std::string& folder);

// Whether plugins/platforms/uarts/<driver>.c exists (board.json's "uart").
bool hasUartDriver(const std::string& driver);

// A board folder's platform name: qemu_mps2_an385 -> qemu-mps2-an385.
std::string boardPlatformName(const deploy::BoardDescription& board);

// The project for `model` on `board`. Real boards (board.flash) also get
// build/firmware.bin and build/firmware.hex for their programmers.
std::vector<deploy::ProjectFile> boardFirmwareProject(
    const deploy::BoardDescription& board, const std::vector<deploy::ProjectFile>& boardFiles,
    const codegen::CompiledModel& model);

// GNU ld's "region `X' overflowed by N bytes", said with the board's memory
// and what it holds; nothing when the output has no such complaint.
std::optional<std::string> explainMemoryOverflow(const deploy::BoardDescription& board,
                                                 const std::string& output);

// What the firmware for `model` needs at least, before anything is built.
struct FirmwareFootprint {
  // RAM
  std::uint64_t workspaceBytes = 0;
  std::uint64_t ioBytes = 0;           // the input and output buffers, and the model's state
  std::uint64_t runtimeDataBytes = 0;  // RPC runtime, ALLOC arena, profiler table
  // flash
  std::uint64_t constantBytes = 0;  // what the CPU's operators read
  std::uint64_t runtimeCodeBytes = 0;

  std::uint64_t dataBytes() const { return workspaceBytes + ioBytes + runtimeDataBytes; }
  std::uint64_t codeBytes() const { return constantBytes + runtimeCodeBytes; }
};
FirmwareFootprint minimumFootprint(const deploy::BoardDescription& board,
                                   const codegen::CompiledModel& model);

// The smallest runtime the RPC firmware links (server, framing, profiler,
// registry): RAM besides the ALLOC arena and the profiler's table, and
// code. Lower bounds measured on every board with Cortex-M0 to M55 builds
// (tests/platforms check them), so a refusal is never wrong.
inline constexpr std::uint64_t kRpcRuntimeDataBytes = 2048;
inline constexpr std::uint64_t kRpcRuntimeCodeBytes = 6144;

// "the model does not fit <board>: ..." with each memory that is too small,
// its size and the bytes missing, when the minimum footprint already
// exceeds the board's memories; nothing when it may fit (the linker has the
// last word: explainMemoryOverflow).
std::optional<std::string> boardFitProblem(const deploy::BoardDescription& board,
                                           const codegen::CompiledModel& model);

}  // namespace loupe::platforms
