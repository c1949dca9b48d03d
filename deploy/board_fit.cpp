#include "deploy/board_fit.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <utility>
#include <vector>

namespace loupe::deploy {

void compileForBoard(driver::CompileRequest& request, const Platform& platform) {
  request.boardCpu = platform.cpu();
  request.options.boardMemories = platform.memoryRegions(request.model);
}

std::string boardRefusal(const Platform& platform, const memory::MemoryPlanError& error,
                         const driver::CompileRequest* request,
                         const PlatformRegistry* knownBoards) {
  std::string message = "the model does not fit " + platform.name() + ": " + error.what();
  if (request != nullptr && knownBoards != nullptr) {
    const auto board = smallestBoardThatFits(*knownBoards, *request, platform.name());
    message += board ? "\nThe smallest known board it fits: " + *board
                     : "\nNo known board has the memory for it.";
  }
  return message;
}

BoardFit checkBoardFit(const Platform& platform, driver::CompileRequest request,
                       const PlatformRegistry* knownBoards) {
  compileForBoard(request, platform);
  BoardFit fit;
  fit.limited = !request.options.boardMemories.empty();
  if (!fit.limited) return fit;
  const driver::CompileRequest asChosen = request;
  request.fitToMemories = true;  // unless the request chooses the plan (compileModel checks)
  try {
    const driver::Compilation compilation = driver::compileModel(std::move(request));
    fit.plan =
        compilation.fit.fitted ? compilation.fit.applied : driver::planSavingsOf(asChosen.options);
    fit.note = compilation.fit.fitted ? compilation.fit.summary(compilation.model)
                                      : driver::planFitLine(compilation.model, fit.plan);
  } catch (const memory::MemoryPlanError& error) {
    fit.fits = false;
    fit.refusal = boardRefusal(platform, error, &asChosen, knownBoards);
  }
  return fit;
}

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
