#include "deploy/board_fit.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

namespace loupe::deploy {

std::optional<std::string> smallestBoardThatFits(const PlatformRegistry& boards,
                                                 const driver::CompileRequest& request,
                                                 const std::string& except) {
  struct Candidate {
    std::int64_t workspaceCapacity = 0;
    std::shared_ptr<const Platform> platform;
  };
  std::vector<Candidate> candidates;
  for (const auto& platform : boards.all()) {
    if (platform->name() == except || platform->cpu().empty() || !platform->buildsFirmware()) {
      continue;
    }
    std::int64_t capacity = 0;
    for (const memory::MemoryRegion& region : platform->memoryRegions(request.model)) {
      if (region.holdsWorkspace) capacity += region.capacity;
    }
    candidates.push_back({capacity, platform});
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.workspaceCapacity < b.workspaceCapacity;
  });
  for (const Candidate& candidate : candidates) {
    driver::CompileRequest attempt = request;
    attempt.boardCpu = candidate.platform->cpu();
    attempt.options.boardMemories = candidate.platform->memoryRegions(request.model);
    attempt.fitToMemories = true;  // unless the user chose the plan (compileModel checks)
    try {
      const driver::Compilation compilation = driver::compileModel(std::move(attempt));
      const std::string fit = compilation.fit.summary(compilation.model);
      return candidate.platform->name() + " (" +
             (fit.empty() ? driver::planSavingsName(driver::planSavingsOf(request.options)) : fit) +
             ")";
    } catch (const memory::MemoryPlanError&) {
      continue;  // too small as well
    } catch (const std::exception&) {
      continue;  // the board cannot compile the model at all (another CPU's limits)
    }
  }
  return std::nullopt;
}

}  // namespace loupe::deploy
