#include "passes/merge_target_regions.h"

#include <map>
#include <numeric>

#include "passes/graph_rewrite.h"
#include "passes/operator_reachability.h"
#include "target/target.h"

namespace loupe::passes {

namespace {

bool isOffloaded(const ir::Operator& op) {
  return !op.placement.target.empty() && op.placement.target != target::kCpuTargetName;
}

}  // namespace

ir::Graph mergeTargetRegions(ir::Graph graph, PassContext& context) {
  const std::size_t count = graph.operators.size();
  const OperatorReachability reachability(graph);
  // regionOf[op]: the representative operator of op's region (the first one).
  std::vector<int> regionOf(count);
  std::iota(regionOf.begin(), regionOf.end(), 0);
  auto membersOf = [&](int regionA, int regionB) {
    std::vector<bool> members(count, false);
    for (std::size_t op = 0; op < count; ++op) {
      members[op] = regionOf[op] == regionA || regionOf[op] == regionB;
    }
    return members;
  };

  for (std::size_t op = 0; op < count; ++op) {
    const ir::Operator& consumer = graph.operators[op];
    if (!isOffloaded(consumer)) continue;
    for (int producer : reachability.producers(static_cast<int>(op))) {
      const ir::Operator& source = graph.operators[static_cast<std::size_t>(producer)];
      if (source.placement.target != consumer.placement.target) continue;
      const int from = regionOf[static_cast<std::size_t>(producer)];
      const int into = regionOf[op];
      if (from == into) continue;
      if (!reachability.isConvex(membersOf(from, into))) {
        context.remark(operatorLabel(source) + " and " + operatorLabel(consumer) +
                       " stay in separate regions: a path between them leaves the target");
        continue;
      }
      const int kept = std::min(from, into), absorbed = std::max(from, into);
      for (int& region : regionOf) {
        if (region == absorbed) region = kept;
      }
    }
  }

  std::map<int, int> numberOf;  // representative -> region number
  for (std::size_t op = 0; op < count; ++op) {
    ir::Operator& o = graph.operators[op];
    if (!isOffloaded(o)) {
      o.placement.region = -1;
      continue;
    }
    o.placement.region =
        numberOf.try_emplace(regionOf[op], static_cast<int>(numberOf.size())).first->second;
  }
  if (!numberOf.empty()) context.remark(std::to_string(numberOf.size()) + " region(s)");
  return graph;
}

}  // namespace loupe::passes
