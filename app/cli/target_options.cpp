#include "cli/target_options.h"

#include <set>

namespace loupe::cli {

OptionSpec targetOptionSpec() {
  return {"--target", OptionSpec::Kind::Value};
}

target::TargetList targetsFrom(const ParsedArguments& parsed,
                               const target::TargetRegistry& registry) {
  const std::string text = parsed.value("--target").value_or(kDefaultTargetString);
  try {
    return target::parseTargetString(text, registry);
  } catch (const target::TargetStringError& error) {
    throw UsageError(std::string("--target: ") + error.what());
  }
}

std::string targetSummary(const ir::Graph& graph, const target::TargetList& targets) {
  // Counted in the model's operators: a region compiled to one operator
  // (the Ethos-U's) or a fused operator counts what it stands for.
  std::size_t total = 0;
  for (const ir::Operator& op : graph.operators) total += op.modelOperators().size();
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
  for (const auto& t : targets) {
    std::size_t count = 0;
    std::set<int> regions;
    for (const ir::Operator& op : graph.operators) {
      if (op.placement.target != t->name()) continue;
      count += op.modelOperators().size();
      // An operator outside every region stands for a region of its own.
      regions.insert(op.placement.region >= 0 ? op.placement.region : -1 - op.index);
    }
    if (t->name() == target::kCpuTargetName) {
      add(t->name() + ": " + std::to_string(count));
    } else {
      add(t->displayName() + ": " + std::to_string(count) + " of " + std::to_string(total) +
          " operators in " + std::to_string(regions.size()) +
          (regions.size() == 1 ? " region" : " regions"));
    }
  }
  std::size_t unplaced = 0;
  for (const ir::Operator& op : graph.operators) unplaced += op.placement.target.empty();
  if (unplaced != 0) add("no target: " + std::to_string(unplaced));
  return text;
}

}  // namespace loupe::cli
