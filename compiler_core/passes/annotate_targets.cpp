#include "passes/annotate_targets.h"

#include <map>
#include <stdexcept>

namespace loupe::passes {

ir::Graph annotateOperatorTargets(ir::Graph graph, const target::TargetList& targets) {
  for (ir::Operator& op : graph.operators) {
    ir::OperatorPlacement placement;
    for (const auto& t : targets) {
      target::TargetVerdict verdict = t->accepts(graph, op);
      if (verdict.accepted) {
        if (placement.target.empty()) placement.target = t->name();
      } else {
        placement.rejections.push_back({t->name(), std::move(verdict.reasons)});
      }
    }
    op.placement = std::move(placement);
  }
  return graph;
}

ir::Graph annotateTargets(ir::Graph graph, PassContext& context) {
  if (context.targets.empty()) {
    throw std::invalid_argument("annotate_targets needs at least one target (e.g. \"c\")");
  }
  graph = annotateOperatorTargets(std::move(graph), context.targets);
  std::vector<PassDiagnostic> diagnostics;
  std::map<std::string, int> counts;
  for (const ir::Operator& op : graph.operators) {
    if (!op.placement.target.empty()) {
      ++counts[op.placement.target];
      continue;
    }
    std::string reasons;
    for (const ir::TargetRejection& rejection : op.placement.rejections) {
      for (const std::string& reason : rejection.reasons) {
        reasons += (reasons.empty() ? "" : "; ") + rejection.target + ": " + reason;
      }
    }
    diagnostics.push_back(diagnosticAt(
        graph, op, -1,
        "a target that accepts it among \"" + target::targetListString(context.targets) + "\"",
        "none (" + reasons + ")"));
  }
  if (!diagnostics.empty()) throw PassError(std::string(kAnnotateTargets), diagnostics);
  for (const auto& [name, count] : counts) {
    context.remark(std::to_string(count) + " of " + std::to_string(graph.operators.size()) +
                   " operators on " + name);
  }
  return graph;
}

}  // namespace loupe::passes
