// The memories of the board a model is compiled for, as the memory plan sees
// them: how many bytes of each the model's workspace pools and constant
// arrays may take, and which of the two each may hold. The board platform
// derives them from board.json (its memories, fastest first, minus what the
// runtime, I/O buffers, stack and code need); the plan turns the ones that
// hold workspace into pools and places every constant array in one of the
// ones that hold constants. Generated C names a linker section per memory
// (workspaceSection, constantSection) that the board's linker script places.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory/memory_pools.h"

namespace loupe::memory {

struct MemoryRegion {
  std::string name;           // the linker script's region: "SRAM" (a C identifier)
  std::int64_t capacity = 0;  // bytes the model's pools and constants may take
  bool holdsWorkspace = false;
  bool holdsConstants = false;
  // Where the firmware's .bss (defaultData) or .rodata (defaultCode) goes
  // anyway: storage placed there needs no section of its own.
  bool defaultData = false;
  bool defaultCode = false;
};

// The section of a workspace pool's storage in `region` (NOLOAD: not in the
// image) and of the constant arrays placed in it (loaded with the image).
std::string workspaceSection(const std::string& region);
std::string constantSection(const std::string& region);
// The region a section of either kind places its data in; "" for another
// section.
std::string regionOfSection(const std::string& section);

// One bounded pool per region that holds workspace, fastest first, named
// after the region in lower case and living in it.
std::vector<MemoryPool> regionPools(const std::vector<MemoryRegion>& regions);

// The region called `name`, or nullptr.
const MemoryRegion* findRegion(const std::vector<MemoryRegion>& regions, const std::string& name);

}  // namespace loupe::memory
