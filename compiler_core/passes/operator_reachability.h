// Which operators depend on which, through the tensors they pass: for every
// operator, every operator before it whose output reaches it along some
// path. Region merging needs it to keep regions convex (no path leaves a
// region and comes back), and partitioning to order main's calls.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"

namespace loupe::passes {

class OperatorReachability {
 public:
  explicit OperatorReachability(const ir::Graph& graph);

  // Whether `to` reads, directly or through other operators, what `from` writes.
  bool reaches(int from, int to) const;
  // The operators whose outputs `op` reads directly, in ascending order.
  const std::vector<int>& producers(int op) const {
    return producers_.at(static_cast<std::size_t>(op));
  }
  // Whether no operator outside `members` (flags by operator position) is
  // both reached from a member and reaches a member: a region of them can
  // then run as one call without waiting on an operator outside it.
  bool isConvex(const std::vector<bool>& members) const;

 private:
  std::size_t words_ = 0;
  std::vector<std::vector<int>> producers_;
  // ancestors_[op]: one bit per operator that reaches op.
  std::vector<std::vector<std::uint64_t>> ancestors_;
};

}  // namespace loupe::passes
