// The firmware project of a Cortex-M board, emulated or real: the model, the
// C runtime, our start-up code and vector table, the board's UART driver and
// board files, the RPC firmware template and a Makefile. QemuPlatform and
// FlashedBoardPlatform generate the same project; only how the firmware is
// started differs. Also what both know about a model that does not fit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
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

// What the firmware for `model` needs at least of one board memory, before
// anything is built.
struct MemoryFootprint {
  const deploy::BoardMemory* memory = nullptr;
  std::uint64_t workspaceBytes = 0;    // the pools placed in it
  std::uint64_t ioBytes = 0;           // data memory: input and output buffers, the model's state
  std::uint64_t runtimeDataBytes = 0;  // data memory: RPC runtime, ALLOC arena, profiler table
  std::uint64_t constantBytes = 0;     // the constant arrays placed in it
  std::uint64_t runtimeCodeBytes = 0;  // code memory

  std::uint64_t total() const {
    return workspaceBytes + ioBytes + runtimeDataBytes + constantBytes + runtimeCodeBytes;
  }
};
// One entry per board memory, in board.json's order.
std::vector<MemoryFootprint> minimumFootprint(const deploy::BoardDescription& board,
                                              const codegen::CompiledModel& model);

// The smallest runtime the RPC firmware links (server, framing, profiler,
// registry): RAM besides the ALLOC arena and the profiler's table, and
// code. Lower bounds measured on every board with Cortex-M0 to M55 builds
// (tests/platforms check them), so a refusal is never wrong.
inline constexpr std::uint64_t kRpcRuntimeDataBytes = 2048;
inline constexpr std::uint64_t kRpcRuntimeCodeBytes = 6144;
// Not bounds but estimates, for how much of the code memory the constants
// may take: the C library's routines the kernels call (memcpy, float
// maths) and the code of one operator's kernel.
inline constexpr std::uint64_t kLibraryCodeBytes = 16 * 1024;
inline constexpr std::uint64_t kOperatorCodeBytes = 2048;

// The linker script fragment the board's linker.ld INCLUDEs in SECTIONS.
inline constexpr std::string_view kModelPoolsScript = "model_pools.ld";

// The board's memories for the memory plan (Platform::memoryRegions): those
// that hold data or workspace, code or constants, with what is left of each
// for `model` after the runtime, I/O buffers, stack and code.
std::vector<memory::MemoryRegion> boardMemoryRegions(const deploy::BoardDescription& board,
                                                     const ir::Graph& model);

// platform/model_pools.ld: an output section per memory outside the
// default code and data memories that the model's pools or constants use.
// Throws std::runtime_error when the model names a memory the board lacks.
deploy::ProjectFile modelPoolsLinkerScript(const deploy::BoardDescription& board,
                                           const codegen::CompiledModel& model);

// "the model does not fit <board>: ..." with each memory that is too small,
// its size and the bytes missing, when the minimum footprint already
// exceeds the board's memories; nothing when it may fit (the linker has the
// last word: explainMemoryOverflow).
std::optional<std::string> boardFitProblem(const deploy::BoardDescription& board,
                                           const codegen::CompiledModel& model);

}  // namespace loupe::platforms
