#include "memory/execution_order.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "memory/lower_bound.h"

namespace loupe::memory {

namespace {

// The graph's dependencies between units: a unit is one operator, or a
// group of operators that runs as one call (contracted into one node so
// every order keeps it contiguous).
class UnitGraph {
 public:
  UnitGraph(const ir::Graph& graph, const std::vector<std::vector<int>>& groups) {
    const std::size_t n = graph.operators.size();
    unitOf_.assign(n, -1);
    for (const std::vector<int>& group : groups) {
      if (group.empty()) continue;
      for (int op : group) {
        if (op < 0 || static_cast<std::size_t>(op) >= n ||
            unitOf_[static_cast<std::size_t>(op)] >= 0) {
          throw std::invalid_argument("operator " + std::to_string(op) +
                                      " is not in exactly one contiguous group");
        }
        unitOf_[static_cast<std::size_t>(op)] = static_cast<int>(units_.size());
      }
      units_.push_back(group);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (unitOf_[i] >= 0) continue;
      unitOf_[i] = static_cast<int>(units_.size());
      units_.push_back({static_cast<int>(i)});
    }
    // Units are tried lowest operator first, so the first order found is
    // the model's own when that keeps every group together.
    std::vector<int> byFirst(units_.size());
    for (std::size_t u = 0; u < units_.size(); ++u) byFirst[u] = static_cast<int>(u);
    auto lowest = [&](int u) {
      return *std::min_element(units_[static_cast<std::size_t>(u)].begin(),
                               units_[static_cast<std::size_t>(u)].end());
    };
    std::sort(byFirst.begin(), byFirst.end(), [&](int a, int b) { return lowest(a) < lowest(b); });
    std::vector<std::vector<int>> sorted;
    for (int u : byFirst) sorted.push_back(units_[static_cast<std::size_t>(u)]);
    units_ = std::move(sorted);
    for (std::size_t u = 0; u < units_.size(); ++u) {
      for (int op : units_[u]) unitOf_[static_cast<std::size_t>(op)] = static_cast<int>(u);
    }

    predecessors_.assign(units_.size(), {});
    successors_.assign(units_.size(), {});
    std::map<int, int> producer;
    std::map<int, int> lastStateUser;  // variable tensor -> last operator using it
    for (const ir::Operator& op : graph.operators) {
      for (int in : op.inputs) {
        if (in < 0) continue;
        if (auto it = producer.find(in); it != producer.end()) addEdge(graph, it->second, op.index);
        if (graph.tensor(in).isVariable) {
          if (auto it = lastStateUser.find(in); it != lastStateUser.end()) {
            addEdge(graph, it->second, op.index);
          }
          lastStateUser[in] = op.index;
        }
      }
      for (int out : op.outputs) producer[out] = op.index;
    }
  }

  std::size_t size() const { return units_.size(); }
  const std::vector<int>& operators(std::size_t unit) const { return units_[unit]; }
  const std::set<int>& successors(std::size_t unit) const { return successors_[unit]; }
  std::vector<int> waitingCounts() const {
    std::vector<int> waiting(units_.size());
    for (std::size_t i = 0; i < units_.size(); ++i) {
      waiting[i] = static_cast<int>(predecessors_[i].size());
    }
    return waiting;
  }

 private:
  void addEdge(const ir::Graph& graph, int from, int to) {
    if (from == to) return;
    const int a = unitOf_[static_cast<std::size_t>(from)];
    const int b = unitOf_[static_cast<std::size_t>(to)];
    if (a == b) {
      // Inside a group the given order must respect the dependency.
      const std::vector<int>& group = units_[static_cast<std::size_t>(a)];
      if (std::find(group.begin(), group.end(), from) > std::find(group.begin(), group.end(), to)) {
        throw std::invalid_argument("operator " + std::to_string(to) + " (" +
                                    graph.operators.at(static_cast<std::size_t>(to)).typeName() +
                                    ") comes before operator " + std::to_string(from) +
                                    ", which it depends on, in its contiguous group");
      }
      return;
    }
    if (!successors_[static_cast<std::size_t>(a)].insert(b).second) return;
    predecessors_[static_cast<std::size_t>(b)].insert(a);
  }

  std::vector<std::vector<int>> units_;
  std::vector<int> unitOf_;
  std::vector<std::set<int>> predecessors_, successors_;
};

class OrderSearch {
 public:
  OrderSearch(const ir::Graph& graph, const AnalysisOptions& options,
              const std::vector<std::vector<int>>& groups, std::int64_t maxOrders)
      : graph_(graph), options_(options), units_(graph, groups), maxOrders_(maxOrders) {
    waiting_ = units_.waitingCounts();
  }

  // The first order the search would find: each step the ready unit with
  // the lowest operator.
  std::vector<int> firstOrder() {
    std::vector<int> waiting = units_.waitingCounts();
    std::vector<int> order;
    for (bool progress = true; progress;) {
      progress = false;
      for (std::size_t u = 0; u < waiting.size(); ++u) {
        if (waiting[u] != 0) continue;
        waiting[u] = -1;
        order.insert(order.end(), units_.operators(u).begin(), units_.operators(u).end());
        for (int s : units_.successors(u)) --waiting[static_cast<std::size_t>(s)];
        progress = true;
        break;
      }
    }
    if (order.size() != graph_.operators.size()) {
      throw std::invalid_argument(
          "no execution order keeps every contiguous group together: an operator outside a group "
          "both depends on it and feeds it");
    }
    return order;
  }

  ExecutionOrder run() {
    const std::vector<int> own = firstOrder();
    result_.graphOrderBound = evaluate(own);
    result_.operators = own;
    result_.bound = result_.graphOrderBound;
    result_.ordersEvaluated = 0;
    extend();
    return result_;
  }

 private:
  std::int64_t evaluate(const std::vector<int>& order) const {
    return liveBytesLowerBound(analyzeWorkspace(graph_, order, options_).buffers);
  }

  // Depth-first over the ready units, lowest operator first, so the first
  // complete order is firstOrder().
  void extend() {
    if (result_.ordersEvaluated >= maxOrders_) {
      result_.exhaustive = false;
      return;
    }
    if (current_.size() == graph_.operators.size()) {
      ++result_.ordersEvaluated;
      const std::int64_t bound = evaluate(current_);
      if (bound < result_.bound) {
        result_.bound = bound;
        result_.operators = current_;
      }
      return;
    }
    for (std::size_t u = 0; u < waiting_.size(); ++u) {
      if (waiting_[u] != 0) continue;
      waiting_[u] = -1;  // scheduled
      const std::vector<int>& ops = units_.operators(u);
      current_.insert(current_.end(), ops.begin(), ops.end());
      for (int s : units_.successors(u)) --waiting_[static_cast<std::size_t>(s)];
      extend();
      for (int s : units_.successors(u)) ++waiting_[static_cast<std::size_t>(s)];
      current_.resize(current_.size() - ops.size());
      waiting_[u] = 0;
      if (!result_.exhaustive) return;
    }
  }

  const ir::Graph& graph_;
  AnalysisOptions options_;
  UnitGraph units_;
  std::int64_t maxOrders_;
  std::vector<int> waiting_;  // unscheduled predecessors; -1 once scheduled
  std::vector<int> current_;
  ExecutionOrder result_;
};

}  // namespace

ExecutionOrder chooseExecutionOrder(const ir::Graph& graph, const AnalysisOptions& options,
                                    const std::vector<std::vector<int>>& groups,
                                    std::int64_t maxOrders) {
  return OrderSearch(graph, options, groups, maxOrders).run();
}

std::vector<int> groupedGraphOrder(const ir::Graph& graph,
                                   const std::vector<std::vector<int>>& groups) {
  if (groups.empty()) return graphOrder(graph);
  return OrderSearch(graph, {}, groups, 0).firstOrder();
}

}  // namespace loupe::memory
