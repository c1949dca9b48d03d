#include "memory/execution_order.h"

#include <map>
#include <set>

#include "memory/lower_bound.h"

namespace loupe::memory {

namespace {

class OrderSearch {
 public:
  OrderSearch(const ir::Graph& graph, const AnalysisOptions& options, std::int64_t maxOrders)
      : graph_(graph), options_(options), maxOrders_(maxOrders) {
    const std::size_t n = graph.operators.size();
    predecessors_.assign(n, {});
    successors_.assign(n, {});
    std::map<int, int> producer;
    std::map<int, int> lastStateUser;  // variable tensor -> last operator using it
    for (const ir::Operator& op : graph.operators) {
      for (int in : op.inputs) {
        if (in < 0) continue;
        if (auto it = producer.find(in); it != producer.end()) addEdge(it->second, op.index);
        if (graph.tensor(in).isVariable) {
          if (auto it = lastStateUser.find(in); it != lastStateUser.end()) {
            addEdge(it->second, op.index);
          }
          lastStateUser[in] = op.index;
        }
      }
      for (int out : op.outputs) producer[out] = op.index;
    }
    waiting_.resize(n);
    for (std::size_t i = 0; i < n; ++i) waiting_[i] = static_cast<int>(predecessors_[i].size());
  }

  ExecutionOrder run() {
    result_.graphOrderBound = evaluate(graphOrder(graph_));
    result_.operators = graphOrder(graph_);
    result_.bound = result_.graphOrderBound;
    result_.ordersEvaluated = 0;
    extend();
    return result_;
  }

 private:
  void addEdge(int from, int to) {
    if (from == to) return;
    if (!successors_[static_cast<std::size_t>(from)].insert(to).second) return;
    predecessors_[static_cast<std::size_t>(to)].insert(from);
  }

  std::int64_t evaluate(const std::vector<int>& order) const {
    return liveBytesLowerBound(analyzeWorkspace(graph_, order, options_).buffers);
  }

  // Depth-first over the ready operators, lowest index first, so the first
  // complete order is the model's own when that is topological.
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
    for (std::size_t i = 0; i < waiting_.size(); ++i) {
      if (waiting_[i] != 0) continue;
      waiting_[i] = -1;  // scheduled
      current_.push_back(static_cast<int>(i));
      for (int s : successors_[i]) --waiting_[static_cast<std::size_t>(s)];
      extend();
      for (int s : successors_[i]) ++waiting_[static_cast<std::size_t>(s)];
      current_.pop_back();
      waiting_[i] = 0;
      if (!result_.exhaustive) return;
    }
  }

  const ir::Graph& graph_;
  AnalysisOptions options_;
  std::int64_t maxOrders_;
  std::vector<std::set<int>> predecessors_, successors_;
  std::vector<int> waiting_;  // unscheduled predecessors; -1 once scheduled
  std::vector<int> current_;
  ExecutionOrder result_;
};

}  // namespace

ExecutionOrder chooseExecutionOrder(const ir::Graph& graph, const AnalysisOptions& options,
                                    std::int64_t maxOrders) {
  return OrderSearch(graph, options, maxOrders).run();
}

}  // namespace loupe::memory
