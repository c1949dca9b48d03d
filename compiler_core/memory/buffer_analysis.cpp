#include "memory/buffer_analysis.h"

#include <algorithm>
#include <set>

#include "memory/in_place.h"

namespace loupe::memory {

std::int64_t roundUp(std::int64_t value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::string bufferName(const ir::Graph& graph, const WorkspaceBuffer& buffer) {
  if (buffer.scratchOf >= 0) {
    return "#" + std::to_string(buffer.scratchOf) + " scratch";
  }
  return graph.tensor(buffer.tensor).name;
}

std::vector<int> graphOrder(const ir::Graph& graph) {
  std::vector<int> order;
  for (const ir::Operator& op : graph.operators) order.push_back(op.index);
  return order;
}

WorkspaceAnalysis analyzeWorkspace(const ir::Graph& graph, const std::vector<int>& order,
                                   const AnalysisOptions& options) {
  WorkspaceAnalysis result;
  result.order = order;
  const std::set<int> outputs(graph.outputs.begin(), graph.outputs.end());
  for (int t : graph.inputs) result.storageOf[t] = t;
  for (int t : outputs) result.storageOf[t] = t;

  // The last step reading each tensor (its producer's step if none does).
  std::map<int, int> lastRead;
  for (std::size_t step = 0; step < order.size(); ++step) {
    const ir::Operator& op = graph.operators.at(static_cast<std::size_t>(order[step]));
    for (int in : op.inputs) {
      if (in >= 0) lastRead[in] = static_cast<int>(step);
    }
  }

  std::map<int, std::size_t> bufferOfOwner;
  // The buffer behind `tensor`, or nullptr when its storage is not planned.
  auto bufferOf = [&](int tensor) -> WorkspaceBuffer* {
    auto root = result.storageOf.find(tensor);
    if (root == result.storageOf.end()) return nullptr;
    auto it = bufferOfOwner.find(root->second);
    return it == bufferOfOwner.end() ? nullptr : &result.buffers[it->second];
  };
  // Whether no step after `step` reads any tensor stored in `buffer`.
  auto diesAt = [&](const WorkspaceBuffer& buffer, int step) {
    auto readUntil = [&](int t) {
      auto it = lastRead.find(t);
      return it == lastRead.end() ? step : it->second;
    };
    if (readUntil(buffer.tensor) > step) return false;
    return std::all_of(buffer.aliases.begin(), buffer.aliases.end(),
                       [&](int a) { return readUntil(a) <= step; });
  };
  auto share = [&](WorkspaceBuffer& buffer, int tensor, int step) {
    result.storageOf[tensor] = buffer.tensor;
    buffer.aliases.push_back(tensor);
    result.lifetimes[tensor] = {step, step};
  };

  auto addScratch = [&](int op, int step) {
    auto it = options.scratchBytes.find(op);
    if (it == options.scratchBytes.end()) return;
    WorkspaceBuffer buffer;
    buffer.size = roundUp(std::max<std::int64_t>(it->second, 1), options.alignment);
    buffer.firstStep = step;
    buffer.lastStep = step;
    buffer.scratchOf = op;
    result.buffers.push_back(buffer);
  };

  for (std::size_t s = 0; s < order.size(); ++s) {
    const int step = static_cast<int>(s);
    const ir::Operator& op = graph.operators.at(static_cast<std::size_t>(order[s]));
    // Reads first: a buffer read here lives at least until here.
    for (int in : op.inputs) {
      if (in < 0) continue;
      if (WorkspaceBuffer* buffer = bufferOf(in)) {
        buffer->lastStep = std::max(buffer->lastStep, step);
        result.lifetimes[in].lastStep = std::max(result.lifetimes[in].lastStep, step);
      }
    }
    const bool singleOutput = op.outputs.size() == 1 && !outputs.contains(op.outputs[0]);
    if (singleOutput && ir::isNoCopyView(graph, op)) {
      const int out = op.outputs[0];
      if (WorkspaceBuffer* buffer = bufferOf(op.inputs[0])) {
        share(*buffer, out, step);
      } else {
        result.storageOf[out] = result.storageOf.at(op.inputs[0]);  // a view of a model input
      }
      continue;
    }
    if (singleOutput && options.inPlace) {
      const ir::Tensor& out = graph.tensor(op.outputs[0]);
      bool placed = false;
      for (std::size_t slot = 0; slot < op.inputs.size() && !placed; ++slot) {
        const int in = op.inputs[slot];
        if (in < 0 || !mayWriteInPlace(graph, op, slot)) continue;
        WorkspaceBuffer* buffer = bufferOf(in);
        if (buffer == nullptr || !diesAt(*buffer, step)) continue;
        if (graph.tensor(in).byteSize() != out.byteSize()) continue;
        share(*buffer, op.outputs[0], step);
        result.inPlaceOperators[op.index] = in;
        placed = true;
      }
      if (placed) {
        addScratch(op.index, step);
        continue;
      }
    }
    for (int out : op.outputs) {
      if (result.storageOf.contains(out)) continue;  // a model output
      result.storageOf[out] = out;
      WorkspaceBuffer buffer;
      buffer.tensor = out;
      buffer.size =
          roundUp(std::max<std::int64_t>(graph.tensor(out).byteSize(), 1), options.alignment);
      buffer.firstStep = step;
      buffer.lastStep = step;
      bufferOfOwner[out] = result.buffers.size();
      result.buffers.push_back(buffer);
      result.lifetimes[out] = {step, step};
    }
    addScratch(op.index, step);
  }
  return result;
}

}  // namespace loupe::memory
