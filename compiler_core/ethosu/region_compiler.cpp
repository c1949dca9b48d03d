#include "ethosu/region_compiler.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>

#include "ethosu/command_stream_writer.h"
#include "ethosu/convolution_lowering.h"
#include "ethosu/driver_payload.h"
#include "ethosu/elementwise_lowering.h"
#include "ethosu/pool_lowering.h"
#include "ethosu/register_emitter.h"
#include "frontend/ethosu_payload_reader.h"

namespace loupe::ethosu {

namespace {

constexpr std::int64_t kAlignment = 16;

std::int64_t alignUp(std::int64_t n) {
  return (n + kAlignment - 1) / kAlignment * kAlignment;
}

bool isConvolution(const ir::Operator& op) {
  return op.type == ir::OpType::Conv2D || op.type == ir::OpType::DepthwiseConv2D ||
         op.type == ir::OpType::FullyConnected;
}
bool isPool(const ir::Operator& op) {
  return op.type == ir::OpType::AveragePool2D || op.type == ir::OpType::MaxPool2D;
}
bool isBinary(const ir::Operator& op) {
  return op.type == ir::OpType::Add || op.type == ir::OpType::Sub || op.type == ir::OpType::Mul;
}

// One operator lowered with its feature maps at `mapOf`'s places: its NPU
// operation and constants (none for a pool or an element-wise operation).
template <typename MapOf>
LoweredOperation lowerOperator(const ir::Graph& graph, const ir::Operator& o,
                               const NpuArchitecture& arch, MapOf mapOf) {
  LoweredOperation lowered;
  if (isConvolution(o)) {
    const bool flat = o.type == ir::OpType::FullyConnected;
    lowered = lowerConvolution(graph, o, arch, mapOf(o.inputs[0], flat), mapOf(o.outputs[0], flat));
  } else if (isPool(o)) {
    lowered.operation =
        lowerPool(graph, o, arch, mapOf(o.inputs[0], false), mapOf(o.outputs[0], false));
  } else if (isBinary(o)) {
    lowered.operation = lowerElementwise(graph, o, arch, mapOf(o.inputs[0], false),
                                         mapOf(o.inputs[1], false), mapOf(o.outputs[0], false));
  } else {
    throw NpuLoweringError("operator " + std::to_string(o.index) + " (" + o.typeName() +
                           "): the Ethos-U emitter has no lowering of it");
  }
  return lowered;
}

// A feature map in the scratch: the tensors that share its bytes (a view
// and its input), and the steps it lives over.
struct ScratchBuffer {
  std::vector<int> tensors;
  std::int64_t bytes = 0;
  int first = 0, last = 0;
  std::int64_t offset = -1;
};

class RegionCompiler {
 public:
  RegionCompiler(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch)
      : graph_(graph), first_(first), last_(last), arch_(arch) {}

  ir::Graph run() {
    findBoundary();
    planScratch();
    lowerOperations();
    return replaceRegion();
  }

 private:
  const ir::Operator& op(int index) const {
    return graph_.operators.at(static_cast<std::size_t>(index));
  }
  bool inRegion(int index) const { return index >= first_ && index <= last_; }

  // The region's inputs (read, not written, in it) and outputs (written in
  // it, read after it or by the model).
  void findBoundary() {
    std::set<int> written;
    for (int i = first_; i <= last_; ++i) {
      for (const int t : op(i).inputs) {
        if (t == ir::kNoTensor || graph_.tensor(t).isConstant || written.count(t) != 0) continue;
        if (std::find(inputs_.begin(), inputs_.end(), t) == inputs_.end()) inputs_.push_back(t);
      }
      for (const int t : op(i).outputs) written.insert(t);
    }
    for (int i = first_; i <= last_; ++i) {
      for (const int t : op(i).outputs) {
        bool readAfter =
            std::find(graph_.outputs.begin(), graph_.outputs.end(), t) != graph_.outputs.end();
        for (std::size_t j = static_cast<std::size_t>(last_) + 1; j < graph_.operators.size();
             ++j) {
          const auto& in = graph_.operators[j].inputs;
          readAfter = readAfter || std::find(in.begin(), in.end(), t) != in.end();
        }
        if (readAfter) outputs_.push_back(t);
      }
    }
  }

  // Buffer of each feature map, views joined with their inputs.
  void planScratch() {
    const int steps = last_ - first_ + 1;
    const auto bufferOf = [this](int tensor) -> ScratchBuffer& {
      const auto found = bufferIndex_.find(tensor);
      if (found != bufferIndex_.end()) return buffers_[found->second];
      bufferIndex_[tensor] = buffers_.size();
      buffers_.push_back({{tensor}, graph_.tensor(tensor).byteSize(), 1 << 30, -1, -1});
      return buffers_.back();
    };
    const auto live = [](ScratchBuffer& b, int step) {
      b.first = std::min(b.first, step);
      b.last = std::max(b.last, step);
    };
    for (const int t : inputs_) live(bufferOf(t), -1);
    for (int i = first_; i <= last_; ++i) {
      const ir::Operator& o = op(i);
      const int step = i - first_;
      if (ir::isNoCopyView(graph_, o)) {
        // The output is the input's bytes: one buffer for both.
        ScratchBuffer& input = bufferOf(o.inputs[0]);
        input.tensors.push_back(o.outputs[0]);
        bufferIndex_[o.outputs[0]] = bufferIndex_[o.inputs[0]];
        live(input, step);
        continue;
      }
      for (const int t : o.inputs) {
        if (t != ir::kNoTensor && !graph_.tensor(t).isConstant) live(bufferOf(t), step);
      }
      for (const int t : o.outputs) live(bufferOf(t), step);
    }
    for (const int t : outputs_) live(bufferOf(t), steps);
    // Largest first, each at the lowest offset clear of the buffers placed
    // whose lives overlap its own.
    std::vector<std::size_t> order(buffers_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
      return buffers_[a].bytes > buffers_[b].bytes;
    });
    std::vector<std::size_t> placed;
    for (const std::size_t i : order) {
      ScratchBuffer& b = buffers_[i];
      std::vector<std::pair<std::int64_t, std::int64_t>> taken;
      for (const std::size_t j : placed) {
        const ScratchBuffer& other = buffers_[j];
        if (other.first <= b.last && b.first <= other.last) {
          taken.push_back({other.offset, other.offset + alignUp(other.bytes)});
        }
      }
      std::sort(taken.begin(), taken.end());
      std::int64_t offset = 0;
      for (const auto& [begin, end] : taken) {
        if (offset + b.bytes <= begin) break;
        offset = std::max(offset, end);
      }
      b.offset = offset;
      scratchBytes_ = std::max(scratchBytes_, alignUp(offset + b.bytes));
      placed.push_back(i);
    }
  }

  std::int64_t offsetOf(int tensor) const { return buffers_[bufferIndex_.at(tensor)].offset; }

  NpuFeatureMap mapOf(int tensor, bool flat) const {
    return featureMapOf(graph_, tensor, flat, static_cast<std::uint64_t>(offsetOf(tensor)));
  }

  void lowerOperations() {
    for (int i = first_; i <= last_; ++i) {
      const ir::Operator& o = op(i);
      if (ir::isNoCopyView(graph_, o)) continue;
      LoweredOperation lowered = lowerOperator(
          graph_, o, arch_, [this](int tensor, bool flat) { return mapOf(tensor, flat); });
      if (!lowered.weights.empty()) {
        flash_.resize(static_cast<std::size_t>(alignUp(static_cast<std::int64_t>(flash_.size()))));
        lowered.operation.scales.base = flash_.size();
        flash_.insert(flash_.end(), lowered.scales.begin(), lowered.scales.end());
        flash_.resize(static_cast<std::size_t>(alignUp(static_cast<std::int64_t>(flash_.size()))));
        lowered.operation.weights.base = flash_.size();
        flash_.insert(flash_.end(), lowered.weights.begin(), lowered.weights.end());
      }
      emitNpuOperation(writer_, lowered.operation);
    }
    emitStop(writer_);
  }

  // A constant uint8 tensor of `bytes`, appended to `graph`.
  static int addConstant(ir::Graph& graph, std::string name, std::vector<std::uint8_t> bytes) {
    ir::Tensor t;
    t.index = static_cast<int>(graph.tensors.size());
    t.name = std::move(name);
    t.dtype = ir::DType::UInt8;
    t.shape = {static_cast<int>(bytes.size())};
    t.isConstant = true;
    t.data = std::move(bytes);
    graph.tensors.push_back(std::move(t));
    return graph.tensors.back().index;
  }

  ir::Graph replaceRegion() {
    ir::Graph result = graph_;
    const std::string name = "ethos-u_" + std::to_string(first_) + "_" + std::to_string(last_);
    std::vector<std::uint8_t> payload = driverPayload(arch_.config, writer_.words());
    const frontend::EthosUPayload decoded = frontend::readEthosUPayload(payload);
    ir::Operator npu;
    npu.type = ir::OpType::EthosU;
    ir::EthosUAttrs attrs;
    attrs.accelerator = arch_.accelerator;
    attrs.scratchBytes = std::max<std::int64_t>(scratchBytes_, kAlignment);
    attrs.workspaceValues = decoded.workspaceValues;
    attrs.npuOperations = decoded.operationCount();
    attrs.macs = decoded.macs();
    npu.inputs = {
        addConstant(result, name + "_payload", std::move(payload)),
        flash_.empty() ? ir::kNoTensor : addConstant(result, name + "_flash", std::move(flash_))};
    for (const int t : inputs_) {
      npu.inputs.push_back(t);
      attrs.inputOffsets.push_back(offsetOf(t));
    }
    for (const int t : outputs_) {
      npu.outputs.push_back(t);
      attrs.outputOffsets.push_back(offsetOf(t));
    }
    npu.attributes = std::move(attrs);
    for (int i = first_; i <= last_; ++i) {
      for (const int source : op(i).modelOperators()) npu.sourceOperators.push_back(source);
    }
    npu.subgraphs = {regionSource(name)};
    std::vector<ir::Operator> operators(graph_.operators.begin(),
                                        graph_.operators.begin() + first_);
    operators.push_back(std::move(npu));
    operators.insert(operators.end(), graph_.operators.begin() + last_ + 1, graph_.operators.end());
    for (std::size_t i = 0; i < operators.size(); ++i) {
      if (operators[i].sourceOperators.empty()) {
        operators[i].sourceOperators = {operators[i].index};
      }
      operators[i].index = static_cast<int>(i);
    }
    result.operators = std::move(operators);
    return result;
  }

  // The region's operators as a graph of their own, so the region can be
  // compiled again for another configuration (npuRegionSource). Tensors keep
  // their indices; constants no operator of the region reads lose their bytes.
  std::shared_ptr<const ir::Graph> regionSource(const std::string& name) const {
    auto source = std::make_shared<ir::Graph>();
    source->name = name;
    source->tensors = graph_.tensors;
    source->inputs = inputs_;
    source->outputs = outputs_;
    std::set<int> read;
    for (int i = first_; i <= last_; ++i) {
      ir::Operator o = op(i);
      o.index = i - first_;
      read.insert(o.inputs.begin(), o.inputs.end());
      source->operators.push_back(std::move(o));
    }
    for (ir::Tensor& t : source->tensors) {
      if (t.isConstant && read.count(t.index) == 0) t.data = {};
    }
    return source;
  }

  const ir::Graph& graph_;
  const int first_, last_;
  const NpuArchitecture& arch_;
  std::vector<int> inputs_, outputs_;
  std::vector<ScratchBuffer> buffers_;
  std::map<int, std::size_t> bufferIndex_;
  std::int64_t scratchBytes_ = 0;
  std::vector<std::uint8_t> flash_;
  CommandStreamWriter writer_;
};

}  // namespace

NpuFeatureMap featureMapOf(const ir::Graph& graph, int tensor, bool flat, std::uint64_t base) {
  const ir::Tensor& t = graph.tensor(tensor);
  if (flat) return NpuFeatureMap::nhwc(1, base, 1, 1, static_cast<int>(t.elementCount()));
  if (t.shape.size() > 4) {
    throw NpuLoweringError(t.name + " has rank " + std::to_string(t.shape.size()) +
                           ", above the NPU's 4");
  }
  int dims[4] = {1, 1, 1, 1};
  for (std::size_t i = 0; i < t.shape.size(); ++i) dims[4 - t.shape.size() + i] = t.shape[i];
  if (dims[0] != 1) throw NpuLoweringError(t.name + " has a batch other than 1");
  return NpuFeatureMap::nhwc(1, base, dims[1], dims[2], dims[3]);
}

bool npuRegionTakes(const ir::Graph& graph, const ir::Operator& op) {
  return isConvolution(op) || isPool(op) || isBinary(op) || ir::isNoCopyView(graph, op);
}

std::vector<std::string> npuRefusals(const ir::Graph& graph, const ir::Operator& op,
                                     const NpuArchitecture& arch) {
  if (ir::isNoCopyView(graph, op)) return {};
  if (!npuRegionTakes(graph, op)) {
    return {"the Ethos-U emitter has no lowering of " + op.typeName() + " yet"};
  }
  try {
    lowerOperator(graph, op, arch,
                  [&graph](int tensor, bool flat) { return featureMapOf(graph, tensor, flat, 0); });
  } catch (const NpuLoweringError& error) {
    // Without the "operator N (TYPE): " the caller shows beside the operator.
    const std::string what = error.what();
    const auto colon = what.find("): ");
    return {colon == std::string::npos ? what : what.substr(colon + 3)};
  } catch (const std::invalid_argument& error) {
    return {error.what()};
  }
  return {};
}

const ir::Graph* npuRegionSource(const ir::Operator& op) {
  if (op.type != ir::OpType::EthosU || op.subgraphs.size() != 1) return nullptr;
  return op.subgraphs.front().get();
}

ir::Graph withNpuRegion(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch) {
  if (first < 0 || last < first || static_cast<std::size_t>(last) >= graph.operators.size()) {
    throw NpuLoweringError("no operators " + std::to_string(first) + ".." + std::to_string(last) +
                           " in the graph");
  }
  return RegionCompiler(graph, first, last, arch).run();
}

}  // namespace loupe::ethosu
