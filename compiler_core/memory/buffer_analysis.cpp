#include "memory/buffer_analysis.h"

#include <algorithm>
#include <optional>
#include <set>

#include "ir/storage_view.h"
#include "memory/in_place.h"

namespace loupe::memory {

std::int64_t roundUp(std::int64_t value, std::int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

std::int64_t storageOffset(const WorkspaceAnalysis& analysis, int tensor) {
  const auto it = analysis.offsetOf.find(tensor);
  return it == analysis.offsetOf.end() ? 0 : it->second;
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

  // The inputs of the concatenations written in place: input -> (the
  // concatenation's output, the input's offset in it).
  struct ConcatMember {
    int output = -1;
    std::int64_t offset = 0;
  };
  std::map<int, ConcatMember> concatMember;
  std::set<int> viewConcats;
  for (const ir::Operator& op : graph.operators) {
    const auto offsets = ir::concatViewOffsets(graph, op);
    if (!offsets) continue;
    viewConcats.insert(op.index);
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      concatMember[op.inputs[i]] = {op.outputs[0], (*offsets)[i]};
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
  auto share = [&](WorkspaceBuffer& buffer, int tensor, int step, std::int64_t offset) {
    result.storageOf[tensor] = buffer.tensor;
    if (offset != 0) result.offsetOf[tensor] = offset;
    buffer.aliases.push_back(tensor);
    result.lifetimes[tensor] = {step, step};
  };
  auto newBuffer = [&](int tensor, int step) -> WorkspaceBuffer& {
    result.storageOf[tensor] = tensor;
    WorkspaceBuffer buffer;
    buffer.tensor = tensor;
    buffer.size =
        roundUp(std::max<std::int64_t>(graph.tensor(tensor).byteSize(), 1), options.alignment);
    buffer.firstStep = step;
    buffer.lastStep = step;
    bufferOfOwner[tensor] = result.buffers.size();
    result.buffers.push_back(buffer);
    result.lifetimes[tensor] = {step, step};
    return result.buffers.back();
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
    // Its inputs wrote the output in place.
    if (viewConcats.contains(op.index)) continue;
    const bool singleOutput = op.outputs.size() == 1 && !outputs.contains(op.outputs[0]);
    if (singleOutput) {
      std::optional<std::int64_t> viewOffset = ir::sliceViewOffset(graph, op);
      if (ir::isNoCopyView(graph, op)) viewOffset = 0;
      if (viewOffset) {
        const int in = op.inputs[0];
        const int out = op.outputs[0];
        const std::int64_t offset = storageOffset(result, in) + *viewOffset;
        if (WorkspaceBuffer* buffer = bufferOf(in)) {
          share(*buffer, out, step, offset);
        } else {
          result.storageOf[out] = result.storageOf.at(in);  // a view of a model input
          if (offset != 0) result.offsetOf[out] = offset;
        }
        continue;
      }
    }
    if (singleOutput && options.inPlace && !concatMember.contains(op.outputs[0])) {
      const ir::Tensor& out = graph.tensor(op.outputs[0]);
      bool placed = false;
      for (std::size_t slot = 0; slot < op.inputs.size() && !placed; ++slot) {
        const int in = op.inputs[slot];
        if (in < 0 || !mayWriteInPlace(graph, op, slot)) continue;
        WorkspaceBuffer* buffer = bufferOf(in);
        if (buffer == nullptr || !diesAt(*buffer, step)) continue;
        if (graph.tensor(in).byteSize() != out.byteSize()) continue;
        share(*buffer, op.outputs[0], step, storageOffset(result, in));
        result.inPlaceOperators[op.index] = in;
        placed = true;
      }
      if (placed) {
        addScratch(op.index, step);
        continue;
      }
    }
    for (int out : op.outputs) {
      if (const auto member = concatMember.find(out); member != concatMember.end()) {
        // Written straight into its place in the concatenation's storage.
        const int whole = member->second.output;
        if (outputs.contains(whole)) {
          result.storageOf[out] = whole;
          if (member->second.offset != 0) result.offsetOf[out] = member->second.offset;
          continue;
        }
        WorkspaceBuffer* buffer = bufferOf(whole);
        share(buffer != nullptr ? *buffer : newBuffer(whole, step), out, step,
              member->second.offset);
        continue;
      }
      if (result.storageOf.contains(out)) continue;  // a model output
      newBuffer(out, step);
    }
    addScratch(op.index, step);
  }
  return result;
}

}  // namespace loupe::memory
