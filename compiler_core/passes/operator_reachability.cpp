#include "passes/operator_reachability.h"

#include <algorithm>

#include "passes/graph_rewrite.h"

namespace loupe::passes {

OperatorReachability::OperatorReachability(const ir::Graph& graph) {
  const std::size_t count = graph.operators.size();
  words_ = (count + 63) / 64;
  producers_.resize(count);
  ancestors_.assign(count, std::vector<std::uint64_t>(words_, 0));
  const std::vector<int> producerOf = tensorProducers(graph);
  // Operators are in execution order, so every producer comes first.
  for (std::size_t op = 0; op < count; ++op) {
    auto& producers = producers_[op];
    for (int tensor : graph.operators[op].inputs) {
      if (tensor == ir::kNoTensor) continue;
      const int producer = producerOf.at(static_cast<std::size_t>(tensor));
      if (producer >= 0 && static_cast<std::size_t>(producer) != op) producers.push_back(producer);
    }
    std::sort(producers.begin(), producers.end());
    producers.erase(std::unique(producers.begin(), producers.end()), producers.end());
    for (int producer : producers) {
      const auto p = static_cast<std::size_t>(producer);
      ancestors_[op][p / 64] |= std::uint64_t{1} << (p % 64);
      for (std::size_t w = 0; w < words_; ++w) ancestors_[op][w] |= ancestors_[p][w];
    }
  }
}

bool OperatorReachability::reaches(int from, int to) const {
  const auto f = static_cast<std::size_t>(from);
  return (ancestors_.at(static_cast<std::size_t>(to))[f / 64] >> (f % 64)) & 1u;
}

bool OperatorReachability::isConvex(const std::vector<bool>& members) const {
  std::vector<std::uint64_t> memberBits(words_, 0);
  for (std::size_t op = 0; op < members.size(); ++op) {
    if (members[op]) memberBits[op / 64] |= std::uint64_t{1} << (op % 64);
  }
  for (std::size_t outside = 0; outside < members.size(); ++outside) {
    if (members[outside]) continue;
    bool reachedFromMember = false;
    for (std::size_t w = 0; w < words_ && !reachedFromMember; ++w) {
      reachedFromMember = (ancestors_[outside][w] & memberBits[w]) != 0;
    }
    if (!reachedFromMember) continue;
    for (std::size_t member = outside + 1; member < members.size(); ++member) {
      if (members[member] && reaches(static_cast<int>(outside), static_cast<int>(member))) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace loupe::passes
