#include "cli/memory_options.h"

#include <stdexcept>

#include "memory/memory_pools.h"
#include "memory/planner_registry.h"

namespace loupe::cli {

std::vector<OptionSpec> memoryOptionSpecs() {
  return {{"--planner", OptionSpec::Kind::Value},
          {"--pools", OptionSpec::Kind::Value},
          {"--overlap-outputs", OptionSpec::Kind::Flag},
          {"--patches", OptionSpec::Kind::Flag},
          {"--plain-plan", OptionSpec::Kind::Flag}};
}

std::string plannerNameList() {
  std::string names;
  for (const memory::PlannerInfo& p : memory::planners()) {
    names += (names.empty() ? "" : ", ") + std::string(p.name);
  }
  return names;
}

memory::MemoryPlanOptions memoryOptionsFrom(const ParsedArguments& parsed, bool allowAll) {
  memory::MemoryPlanOptions options;
  options.planner = parsed.value("--planner").value_or(std::string(memory::kDefaultPlanner));
  if (memory::findPlanner(options.planner) == nullptr && !(allowAll && options.planner == "all")) {
    throw UsageError("unknown planner '" + options.planner + "' (known: " + plannerNameList() +
                     (allowAll ? ", all)" : ")"));
  }
  if (const auto spec = parsed.value("--pools")) {
    try {
      options.pools = memory::parsePoolSpec(*spec);
    } catch (const std::invalid_argument& error) {
      throw UsageError(std::string("--pools: ") + error.what());
    }
  }
  options.overlapOutputs = parsed.has("--overlap-outputs");
  options.patches = parsed.has("--patches");
  if (parsed.has("--plain-plan") && (options.overlapOutputs || options.patches)) {
    throw UsageError("--plain-plan plans without overlapped outputs or patches; leave out " +
                     std::string(options.overlapOutputs ? "--overlap-outputs" : "--patches"));
  }
  return options;
}

bool fitToMemoriesFrom(const ParsedArguments& parsed) {
  return !parsed.has("--plain-plan") && !parsed.has("--overlap-outputs") &&
         !parsed.has("--patches");
}

}  // namespace loupe::cli
