#include "memory/plan_checker.h"

#include <algorithm>

namespace loupe::memory {

namespace {

std::string describe(const WorkspaceBuffer& b) {
  const std::string owner = b.scratchOf >= 0 ? "scratch of operator " + std::to_string(b.scratchOf)
                                             : "buffer of tensor " + std::to_string(b.tensor);
  return owner + " (" + std::to_string(b.size) + " bytes, steps " + std::to_string(b.firstStep) +
         "-" + std::to_string(b.lastStep) + ")";
}

}  // namespace

std::vector<std::string> checkPlan(const PlanProblem& problem, const PlanResult& plan,
                                   const std::vector<OverlapAllowance>& allowances) {
  std::vector<std::string> problems;
  const auto& buffers = problem.buffers;
  if (plan.pool.size() != buffers.size() || plan.offset.size() != buffers.size() ||
      plan.poolBytes.size() != problem.pools.size()) {
    return {"the plan has " + std::to_string(plan.pool.size()) + " placements for " +
            std::to_string(buffers.size()) + " buffers and " +
            std::to_string(plan.poolBytes.size()) + " pool sizes for " +
            std::to_string(problem.pools.size()) + " pools"};
  }
  std::int64_t total = 0;
  for (std::int64_t bytes : plan.poolBytes) total += bytes;
  if (total != plan.totalBytes) {
    problems.push_back("total " + std::to_string(plan.totalBytes) +
                       " is not the sum of the pools " + std::to_string(total));
  }
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const int p = plan.pool[i];
    if (p < 0 || static_cast<std::size_t>(p) >= problem.pools.size()) {
      problems.push_back(describe(buffers[i]) + " is in no pool");
      continue;
    }
    const MemoryPool& pool = problem.pools[static_cast<std::size_t>(p)];
    const std::int64_t end = plan.offset[i] + buffers[i].size;
    if (plan.offset[i] < 0 || plan.offset[i] % pool.alignment != 0) {
      problems.push_back(describe(buffers[i]) + " has offset " + std::to_string(plan.offset[i]) +
                         ", not a multiple of pool " + pool.name + "'s alignment " +
                         std::to_string(pool.alignment));
    }
    if ((pool.bounded() && end > pool.size) || end > plan.poolBytes[static_cast<std::size_t>(p)]) {
      problems.push_back(describe(buffers[i]) + " ends at " + std::to_string(end) +
                         ", outside pool " + pool.name);
    }
    for (std::size_t j = i + 1; j < buffers.size(); ++j) {
      if (plan.pool[j] != p || !conflicts(buffers[i], buffers[j])) continue;
      const std::int64_t otherEnd = plan.offset[j] + buffers[j].size;
      if (plan.offset[i] < otherEnd && plan.offset[j] < end) {
        // An output over the input it may overlap, far enough before it.
        const auto allowance =
            std::find_if(allowances.begin(), allowances.end(), [&](const OverlapAllowance& a) {
              return (a.inputBuffer == static_cast<int>(i) &&
                      a.outputBuffer == static_cast<int>(j)) ||
                     (a.inputBuffer == static_cast<int>(j) &&
                      a.outputBuffer == static_cast<int>(i));
            });
        if (allowance != allowances.end()) {
          const auto in = static_cast<std::size_t>(allowance->inputBuffer);
          const auto out = static_cast<std::size_t>(allowance->outputBuffer);
          if (allowance->allows(plan.offset[in], plan.offset[out], buffers)) continue;
          const std::int64_t before = plan.offset[in] - plan.offset[out];
          problems.push_back(
              "the output " + describe(buffers[out]) + " starts " +
              (before >= 0 ? std::to_string(before) + " bytes before"
                           : std::to_string(-before) + " bytes after") +
              " its input " + describe(buffers[in]) + " in pool " + pool.name +
              ": its stores would overwrite input bytes still to be read unless it starts at "
              "least " +
              std::to_string(allowance->lagBytes) + " bytes before" +
              (allowance->leadBytes >= 0 ? " or, running backwards, " +
                                               std::to_string(allowance->leadBytes) + " bytes after"
                                         : std::string()));
          continue;
        }
        problems.push_back(describe(buffers[i]) + " at " + std::to_string(plan.offset[i]) +
                           " overlaps " + describe(buffers[j]) + " at " +
                           std::to_string(plan.offset[j]) + " in pool " + pool.name);
      }
    }
  }
  return problems;
}

std::vector<std::string> checkAliases(const WorkspaceAnalysis& analysis) {
  std::vector<std::string> problems;
  for (const WorkspaceBuffer& b : analysis.buffers) {
    for (int a : b.aliases) {
      auto it = analysis.lifetimes.find(a);
      if (it == analysis.lifetimes.end()) {
        problems.push_back("alias tensor " + std::to_string(a) + " has no lifetime");
      } else if (it->second.firstStep < b.firstStep || it->second.lastStep > b.lastStep) {
        problems.push_back("alias tensor " + std::to_string(a) + " lives outside " + describe(b));
      }
      if (analysis.storageOf.at(a) != b.tensor) {
        problems.push_back("alias tensor " + std::to_string(a) + " is not stored in " +
                           describe(b));
      }
    }
  }
  return problems;
}

}  // namespace loupe::memory
