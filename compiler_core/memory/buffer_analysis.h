// Analysis for memory planning: which tensors need workspace storage, how big
// each buffer is (rounded up to the alignment), and the steps of the
// execution order over which it is alive. Model inputs and outputs live in
// the application's buffers, constants in flash and variable tensors (state)
// in their own storage, so none of them is planned. Two kinds of tensor
// share another's buffer instead of getting one (aliasing):
//   - the output of a no-copy view (reshape, squeeze, expand dims), and of a
//     slice marked as a view, at the byte offset of its rows (storage_view.h);
//   - the inputs of a concatenation marked as a view, each at its offset in
//     the concatenation's buffer, which lives from the first one's write;
//   - the output of an element-wise operator written in place over an input
//     that dies at that step (see in_place.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "memory/memory_pools.h"

namespace loupe::memory {

struct WorkspaceBuffer {
  int tensor = -1;           // the tensor that owns the storage (-1 for scratch)
  std::vector<int> aliases;  // tensors sharing it, in the order they are written
  std::int64_t size = 0;     // bytes, rounded up to the alignment
  int firstStep = 0;         // the step that writes it
  int lastStep = 0;          // the last step that reads it (or an alias of it)
  // Operator scratch: the operator whose function's scratch region this is;
  // alive during that operator's step only.
  int scratchOf = -1;
};

struct TensorLifetime {
  int firstStep = 0;
  int lastStep = 0;
};

struct WorkspaceAnalysis {
  std::vector<int> order;  // operator indices, by step
  std::vector<WorkspaceBuffer> buffers;
  // For every non-constant, non-variable tensor: the tensor whose storage it
  // uses (itself, or the owner of the buffer it aliases; a model input or
  // output owns itself).
  std::map<int, int> storageOf;
  // The byte offset of a tensor inside the storage of storageOf's tensor,
  // for the views at an offset; absent means 0 (storageOffset reads it).
  std::map<int, std::int64_t> offsetOf;
  // Every tensor stored in a workspace buffer, owners and aliases.
  std::map<int, TensorLifetime> lifetimes;
  // Operator index -> the input tensor whose buffer its output reuses.
  std::map<int, int> inPlaceOperators;
};

struct AnalysisOptions {
  std::int64_t alignment = kDefaultAlignment;
  bool inPlace = true;  // allow element-wise operators to write over a dying input
  // Operator index -> bytes of its function's scratch region
  // (tir::PrimFunc::scratchBytes); operators without one are absent.
  std::map<int, std::int64_t> scratchBytes;
};

// The operators in the graph's own order.
std::vector<int> graphOrder(const ir::Graph& graph);

// `order` lists every operator index once, in an order that respects the
// data dependencies.
WorkspaceAnalysis analyzeWorkspace(const ir::Graph& graph, const std::vector<int>& order,
                                   const AnalysisOptions& options = {});

// Whether two buffers are alive at a common step and so may not overlap.
inline bool conflicts(const WorkspaceBuffer& a, const WorkspaceBuffer& b) {
  return a.firstStep <= b.lastStep && b.firstStep <= a.lastStep;
}

// The byte offset of `tensor` inside its storage (WorkspaceAnalysis::offsetOf).
std::int64_t storageOffset(const WorkspaceAnalysis& analysis, int tensor);

std::int64_t roundUp(std::int64_t value, std::int64_t alignment);

// The tensor's name, or "#<operator> scratch" for operator scratch.
std::string bufferName(const ir::Graph& graph, const WorkspaceBuffer& buffer);

}  // namespace loupe::memory
