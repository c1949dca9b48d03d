// Named memory pools a plan places buffers in: the RAM regions of a board
// (e.g. fast DTCM and larger SRAM), listed fastest first. They come from the
// board's memories (memory_region.h) or from the `--pools` specification
// "dtcm:size=16384,alignment=32;sram:size=2M,memory=SRAM".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::memory {

inline constexpr std::int64_t kDefaultAlignment = 16;

struct MemoryPool {
  std::string name;       // a C identifier: generated code names its storage after it
  std::int64_t size = 0;  // bytes; 0 means unbounded
  std::int64_t alignment = kDefaultAlignment;  // every offset is a multiple of it
  // The board memory (linker region) the pool's storage lives in; empty:
  // where the application's data goes (.bss, or the caller's memory).
  std::string memory;
  bool bounded() const { return size > 0; }
};

// The single unbounded pool used when the user names none.
std::vector<MemoryPool> defaultPools();

// Parses "name:size=N[,alignment=A][,memory=REGION];name2:size=M". Sizes are bytes with an
// optional K or M suffix (KiB, MiB); alignments are powers of two. Throws
// std::invalid_argument saying which pool and field is wrong.
std::vector<MemoryPool> parsePoolSpec(std::string_view spec);

// The largest alignment of the pools: buffer sizes are rounded up to it so a
// buffer can move between pools.
std::int64_t largestAlignment(const std::vector<MemoryPool>& pools);

}  // namespace loupe::memory
