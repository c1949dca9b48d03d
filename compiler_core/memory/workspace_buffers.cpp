#include "memory/workspace_buffers.h"

#include <algorithm>
#include <set>

namespace loupe::memory {

namespace {

std::int64_t roundUp(std::int64_t value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

WorkspaceAnalysis analyzeWorkspace(const ir::Graph& graph,
                                   bool (*isView)(const ir::Graph&, const ir::Operator&),
                                   std::int64_t alignment) {
  WorkspaceAnalysis result;
  const std::set<int> external(graph.inputs.begin(), graph.inputs.end());
  const std::set<int> outputs(graph.outputs.begin(), graph.outputs.end());
  for (int t : external) result.storageOf[t] = t;
  for (int t : outputs) result.storageOf[t] = t;

  std::map<int, std::size_t> bufferOfRoot;
  for (const ir::Operator& op : graph.operators) {
    const bool view = isView(graph, op) && !outputs.contains(op.outputs[0]);
    for (int out : op.outputs) {
      if (view) {
        result.storageOf[out] = result.storageOf.at(op.inputs[0]);
        continue;
      }
      if (result.storageOf.contains(out)) continue;  // a model output
      result.storageOf[out] = out;
      WorkspaceBuffer buffer;
      buffer.tensor = out;
      buffer.size = roundUp(std::max<std::int64_t>(graph.tensor(out).byteSize(), 1), alignment);
      buffer.firstStep = op.index;
      buffer.lastStep = op.index;
      bufferOfRoot[out] = result.buffers.size();
      result.buffers.push_back(buffer);
    }
    if (view && bufferOfRoot.contains(result.storageOf[op.outputs[0]])) {
      result.buffers[bufferOfRoot[result.storageOf[op.outputs[0]]]].aliases.push_back(
          op.outputs[0]);
    }
    for (int in : op.inputs) {
      if (in < 0) continue;
      auto root = result.storageOf.find(in);
      if (root == result.storageOf.end()) continue;  // a constant
      if (auto it = bufferOfRoot.find(root->second); it != bufferOfRoot.end()) {
        result.buffers[it->second].lastStep =
            std::max(result.buffers[it->second].lastStep, op.index);
      }
    }
  }
  return result;
}

std::int64_t planGreedyBySize(std::vector<WorkspaceBuffer>& buffers, std::int64_t alignment) {
  std::vector<std::size_t> order(buffers.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return buffers[a].size > buffers[b].size; });
  std::int64_t total = 0;
  std::vector<std::size_t> placed;
  for (std::size_t i : order) {
    WorkspaceBuffer& buffer = buffers[i];
    // Intervals taken by buffers alive at a common step, by offset.
    std::vector<std::pair<std::int64_t, std::int64_t>> taken;
    for (std::size_t j : placed) {
      const WorkspaceBuffer& other = buffers[j];
      if (other.lastStep < buffer.firstStep || buffer.lastStep < other.firstStep) continue;
      taken.emplace_back(other.offset, other.offset + other.size);
    }
    std::sort(taken.begin(), taken.end());
    std::int64_t offset = 0;
    for (const auto& [begin, end] : taken) {
      if (offset + buffer.size <= begin) break;
      offset = std::max(offset, roundUp(end, alignment));
    }
    buffer.offset = offset;
    total = std::max(total, offset + buffer.size);
    placed.push_back(i);
  }
  return total;
}

}  // namespace loupe::memory
