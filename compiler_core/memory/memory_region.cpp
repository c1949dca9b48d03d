#include "memory/memory_region.h"

#include <algorithm>
#include <cctype>

namespace loupe::memory {

std::string workspaceSection(const std::string& region) {
  return ".loupe.workspace." + region;
}

std::string constantSection(const std::string& region) {
  return ".loupe.constants." + region;
}

std::string regionOfSection(const std::string& section) {
  for (const std::string& prefix : {workspaceSection(""), constantSection("")}) {
    if (section.starts_with(prefix)) return section.substr(prefix.size());
  }
  return {};
}

std::vector<MemoryPool> regionPools(const std::vector<MemoryRegion>& regions) {
  std::vector<MemoryPool> pools;
  for (const MemoryRegion& region : regions) {
    if (!region.holdsWorkspace || region.capacity <= 0) continue;
    std::string name = region.name;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    pools.push_back({name, region.capacity, kDefaultAlignment, region.name});
  }
  return pools;
}

const MemoryRegion* findRegion(const std::vector<MemoryRegion>& regions, const std::string& name) {
  for (const MemoryRegion& region : regions) {
    if (region.name == name) return &region;
  }
  return nullptr;
}

}  // namespace loupe::memory
