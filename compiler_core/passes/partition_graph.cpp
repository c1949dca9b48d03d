#include "passes/partition_graph.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "passes/graph_rewrite.h"
#include "passes/operator_reachability.h"

namespace loupe::passes {

namespace {

void addOnce(std::vector<int>& list, int value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

ir::ExternalFunction externalFunction(const ir::Graph& graph, int region, std::string name,
                                      const std::vector<std::vector<TensorUse>>& uses) {
  ir::ExternalFunction function;
  function.name = std::move(name);
  for (const ir::Operator& op : graph.operators) {
    if (op.placement.region != region) continue;
    function.target = op.placement.target;
    function.operators.push_back(op.index);
  }
  auto inside = [&](int position) {
    return graph.operators[static_cast<std::size_t>(position)].placement.region == region;
  };
  std::set<int> produced;
  for (int position : function.operators) {
    const ir::Operator& op = graph.operators[static_cast<std::size_t>(position)];
    for (int tensor : op.inputs) {
      if (tensor == ir::kNoTensor) continue;
      if (graph.tensor(tensor).isConstant) {
        addOnce(function.constants, tensor);
      } else if (produced.count(tensor) == 0) {
        addOnce(function.inputs, tensor);
      }
    }
    for (int tensor : op.outputs) {
      produced.insert(tensor);
      const auto& readers = uses.at(static_cast<std::size_t>(tensor));
      const bool readOutside = std::any_of(readers.begin(), readers.end(),
                                           [&](const TensorUse& use) { return !inside(use.op); });
      if (readOutside || isGraphOutput(graph, tensor)) addOnce(function.outputs, tensor);
    }
  }
  return function;
}

// Main's calls: CPU operators and whole regions, each once all it reads is
// written, choosing the earliest first operator among those ready. Regions
// are convex, so every region becomes ready.
std::vector<ir::MainCall> mainCalls(const ir::Graph& graph) {
  const OperatorReachability reachability(graph);
  const std::size_t count = graph.operators.size();
  auto unitOf = [&](int position) {
    const int region = graph.operators[static_cast<std::size_t>(position)].placement.region;
    return region >= 0 ? ir::MainCall{-1, region} : ir::MainCall{position, -1};
  };
  auto sameUnit = [](const ir::MainCall& a, const ir::MainCall& b) {
    return a.operatorIndex == b.operatorIndex && a.externalFunction == b.externalFunction;
  };
  std::vector<bool> done(count, false);
  std::vector<ir::MainCall> calls;
  for (std::size_t finished = 0; finished < count;) {
    bool progressed = false;
    for (std::size_t candidate = 0; candidate < count && !progressed; ++candidate) {
      if (done[candidate]) continue;
      const ir::MainCall unit = unitOf(static_cast<int>(candidate));
      std::vector<std::size_t> members;
      for (std::size_t op = 0; op < count; ++op) {
        if (!done[op] && sameUnit(unitOf(static_cast<int>(op)), unit)) members.push_back(op);
      }
      const bool ready = std::all_of(members.begin(), members.end(), [&](std::size_t op) {
        const auto& producers = reachability.producers(static_cast<int>(op));
        return std::all_of(producers.begin(), producers.end(), [&](int producer) {
          return done[static_cast<std::size_t>(producer)] || sameUnit(unitOf(producer), unit);
        });
      });
      if (!ready) continue;
      for (std::size_t op : members) done[op] = true;
      finished += members.size();
      calls.push_back(unit);
      progressed = true;
    }
    if (!progressed) {
      throw std::logic_error("partition_graph: the regions depend on each other in a cycle");
    }
  }
  return calls;
}

}  // namespace

ir::Graph partitionGraph(ir::Graph graph, PassContext& context) {
  graph.externalFunctions.clear();
  graph.mainCalls.clear();
  int regions = 0;
  for (const ir::Operator& op : graph.operators)
    regions = std::max(regions, op.placement.region + 1);
  if (regions == 0) return graph;
  const auto uses = tensorUses(graph);
  std::map<std::string, int> perTarget;
  for (int region = 0; region < regions; ++region) {
    std::string target;
    for (const ir::Operator& op : graph.operators) {
      if (op.placement.region == region) target = op.placement.target;
    }
    const std::string name = target + "_" + std::to_string(perTarget[target]++);
    graph.externalFunctions.push_back(externalFunction(graph, region, name, uses));
    const ir::ExternalFunction& function = graph.externalFunctions.back();
    context.remark(function.name + ": " + std::to_string(function.operators.size()) +
                   " operator(s), " + std::to_string(function.inputs.size()) + " input(s), " +
                   std::to_string(function.outputs.size()) + " output(s)");
  }
  graph.mainCalls = mainCalls(graph);
  return graph;
}

}  // namespace loupe::passes
