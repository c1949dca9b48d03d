#include "passes/compile_target_regions.h"

#include <algorithm>
#include <map>
#include <set>

#include "target/target.h"

namespace loupe::passes {

namespace {

const target::Target* targetNamed(const PassContext& context, const std::string& name) {
  for (const auto& t : context.targets) {
    if (t->name() == name) return t.get();
  }
  return nullptr;
}

// The region's operators made consecutive; the first and last position.
std::pair<int, int> gatherRegion(ir::Graph& graph, int region) {
  const auto inRegion = [&graph, region](std::size_t i) {
    return graph.operators[i].placement.region == region;
  };
  std::size_t first = graph.operators.size(), last = 0;
  for (std::size_t i = 0; i < graph.operators.size(); ++i) {
    if (inRegion(i)) first = std::min(first, i), last = std::max(last, i);
  }
  // Tensors the region's operators write, and those written by operators
  // that read them (directly or not) between first and last.
  std::set<int> fromRegion;
  std::vector<ir::Operator> before, members, after;
  for (std::size_t i = first; i <= last; ++i) {
    ir::Operator& op = graph.operators[i];
    bool dependsOnRegion = inRegion(i);
    for (const int t : op.inputs) dependsOnRegion = dependsOnRegion || fromRegion.count(t) != 0;
    if (dependsOnRegion) {
      for (const int t : op.outputs) fromRegion.insert(t);
    }
    (inRegion(i) ? members : dependsOnRegion ? after : before).push_back(std::move(op));
  }
  std::vector<ir::Operator> reordered(
      std::make_move_iterator(graph.operators.begin()),
      std::make_move_iterator(graph.operators.begin() + static_cast<std::ptrdiff_t>(first)));
  for (auto* part : {&before, &members, &after}) {
    for (ir::Operator& op : *part) reordered.push_back(std::move(op));
  }
  for (std::size_t i = last + 1; i < graph.operators.size(); ++i) {
    reordered.push_back(std::move(graph.operators[i]));
  }
  for (std::size_t i = 0; i < reordered.size(); ++i) {
    if (reordered[i].sourceOperators.empty()) reordered[i].sourceOperators = {reordered[i].index};
    reordered[i].index = static_cast<int>(i);
  }
  graph.operators = std::move(reordered);
  const int start = static_cast<int>(first + before.size());
  return {start, start + static_cast<int>(members.size()) - 1};
}

}  // namespace

ir::Graph compileTargetRegions(ir::Graph graph, PassContext& context) {
  // The regions to compile, last first so that earlier positions stay put.
  std::map<int, const target::Target*, std::greater<>> regions;
  for (const ir::Operator& op : graph.operators) {
    if (op.placement.region < 0) continue;
    const target::Target* t = targetNamed(context, op.placement.target);
    if (t != nullptr && t->regionOperatorCompiler()) regions[op.placement.region] = t;
  }
  for (const auto& [region, target] : regions) {
    const auto [first, last] = gatherRegion(graph, region);
    const auto compile = *target->regionOperatorCompiler();
    const std::size_t before = graph.operators.size();
    graph = compile(graph, first, last);
    ir::Operator& compiled = graph.operators[static_cast<std::size_t>(first)];
    // Still the target's, but in main (region -1): the CPU's code calls it.
    compiled.placement.target = target->name();
    compiled.placement.region = -1;
    context.remark("region " + std::to_string(region) + " of " + target->name() + " (" +
                   std::to_string(before - graph.operators.size() + 1) +
                   " operators) compiled to " + compiled.typeName() + " #" + std::to_string(first));
  }
  return graph;
}

}  // namespace loupe::passes
