// Analysis for memory planning: which tensors need workspace storage, how big
// each buffer is (rounded up to the alignment), and the operator steps over
// which it is alive. Model inputs and outputs live in the application's
// buffers and constants in flash, so neither is planned; a no-copy view
// (reshape) shares its input's buffer, which then lives until the view's
// last reader.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ir/graph.h"

namespace loupe::memory {

inline constexpr std::int64_t kDefaultAlignment = 16;

struct WorkspaceBuffer {
  int tensor = -1;           // the tensor that owns the storage
  std::vector<int> aliases;  // views sharing it
  std::int64_t size = 0;     // bytes, rounded up to the alignment
  int firstStep = 0;         // operator that writes it
  int lastStep = 0;          // last operator that reads it (or a view of it)
  std::int64_t offset = -1;  // set by a planner
};

struct WorkspaceAnalysis {
  std::vector<WorkspaceBuffer> buffers;
  // For every non-constant tensor: the tensor whose storage it uses (itself,
  // or the root of a view chain; a model input or output roots itself).
  std::map<int, int> storageOf;
};

// `isView(op)` says whether an operator's output may share its input's storage.
WorkspaceAnalysis analyzeWorkspace(const ir::Graph& graph,
                                   bool (*isView)(const ir::Graph&, const ir::Operator&),
                                   std::int64_t alignment = kDefaultAlignment);

// Greedy by size: largest buffer first, each at the lowest offset that does
// not overlap a buffer alive at a common step. Returns the workspace bytes.
std::int64_t planGreedyBySize(std::vector<WorkspaceBuffer>& buffers,
                              std::int64_t alignment = kDefaultAlignment);

}  // namespace loupe::memory
