#include "ethosu/region_compiler.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "analysis/operator_cost.h"
#include "ethosu/command_stream_writer.h"
#include "ethosu/concatenation_lowering.h"
#include "ethosu/convolution_lowering.h"
#include "ethosu/driver_payload.h"
#include "ethosu/elementwise_lowering.h"
#include "ethosu/lookup_table_lowering.h"
#include "ethosu/pool_lowering.h"
#include "ethosu/register_emitter.h"
#include "ethosu/resize_lowering.h"
#include "ethosu/softmax_lowering.h"
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
// The most of an operator's constants compile() can buffer: a fully
// connected layer's scales alone (see NpuRegionCompiler::bufferingCandidates),
// nothing for one without constants.
std::optional<ConstantBuffering> mostBuffering(const ir::Operator& op) {
  if (op.type == ir::OpType::Conv2D || op.type == ir::OpType::DepthwiseConv2D) {
    return ConstantBuffering::ScalesAndWeights;
  }
  if (op.type == ir::OpType::FullyConnected) return ConstantBuffering::Scales;
  return std::nullopt;
}
bool isPool(const ir::Operator& op) {
  return op.type == ir::OpType::AveragePool2D || op.type == ir::OpType::MaxPool2D;
}
bool isBinary(const ir::Operator& op) {
  return op.type == ir::OpType::Add || op.type == ir::OpType::Sub || op.type == ir::OpType::Mul ||
         op.type == ir::OpType::Minimum || op.type == ir::OpType::Maximum;
}

// One operator lowered with its feature maps at `mapOf`'s places: its NPU
// operations (a concatenation's copies follow the first) and what they
// read from the flash (a convolution's weights and scales, a lookup table).
template <typename MapOf>
LoweredOperation lowerOperator(const ir::Graph& graph, const ir::Operator& o,
                               const NpuArchitecture& arch, MapOf mapOf) {
  LoweredOperation lowered;
  if (isConvolution(o)) {
    const bool flat = o.type == ir::OpType::FullyConnected;
    lowered = lowerConvolution(graph, o, arch, mapOf(o.inputs[0], flat), mapOf(o.outputs[0], flat));
  } else if (o.type == ir::OpType::TransposeConv) {
    // Its operands are (output shape, filter, input, bias).
    if (o.inputs.size() < 3 || o.inputs[2] == ir::kNoTensor) {
      throw NpuLoweringError("operator " + std::to_string(o.index) + " (" + o.typeName() +
                             "): has no input");
    }
    lowered =
        lowerConvolution(graph, o, arch, mapOf(o.inputs[2], false), mapOf(o.outputs[0], false));
  } else if (isResize(o)) {
    lowered = lowerResize(graph, o, arch, mapOf(o.inputs[0], false), mapOf(o.outputs[0], false));
  } else if (isPool(o)) {
    lowered.operation =
        lowerPool(graph, o, arch, mapOf(o.inputs[0], false), mapOf(o.outputs[0], false));
  } else if (o.type == ir::OpType::Concatenation) {
    std::vector<NpuFeatureMap> inputs;
    for (const int t : o.inputs) inputs.push_back(mapOf(t, false));
    lowered = lowerConcatenation(graph, o, arch, inputs, mapOf(o.outputs[0], false));
  } else if (isLookupTableOperator(o)) {
    lowered =
        lowerLookupTable(graph, o, arch, mapOf(o.inputs[0], false), mapOf(o.outputs[0], false));
  } else if (o.type == ir::OpType::Softmax) {
    lowered = lowerSoftmax(graph, o, arch, mapOf(o.inputs[0], true), mapOf(o.outputs[0], true));
  } else if (isBinary(o)) {
    lowered.operation = lowerElementwise(graph, o, arch, mapOf(o.inputs[0], false),
                                         mapOf(o.inputs[1], false), mapOf(o.outputs[0], false));
  } else {
    throw NpuLoweringError("operator " + std::to_string(o.index) + " (" + o.typeName() +
                           "): the Ethos-U emitter has no lowering of it");
  }
  return lowered;
}

// The region's inputs (read, not written, in it) and outputs (written in
// it, read after it or by the model).
void findBoundary(const ir::Graph& graph, int first, int last, std::vector<int>& inputs,
                  std::vector<int>& outputs) {
  std::set<int> written;
  for (int i = first; i <= last; ++i) {
    for (const int t : graph.operators[static_cast<std::size_t>(i)].inputs) {
      if (t == ir::kNoTensor || graph.tensor(t).isConstant || written.count(t) != 0) continue;
      if (std::find(inputs.begin(), inputs.end(), t) == inputs.end()) inputs.push_back(t);
    }
    for (const int t : graph.operators[static_cast<std::size_t>(i)].outputs) written.insert(t);
  }
  for (int i = first; i <= last; ++i) {
    for (const int t : graph.operators[static_cast<std::size_t>(i)].outputs) {
      bool readAfter =
          std::find(graph.outputs.begin(), graph.outputs.end(), t) != graph.outputs.end();
      for (std::size_t j = static_cast<std::size_t>(last) + 1; j < graph.operators.size(); ++j) {
        const auto& in = graph.operators[j].inputs;
        readAfter = readAfter || std::find(in.begin(), in.end(), t) != in.end();
      }
      if (readAfter) outputs.push_back(t);
    }
  }
}

// The feature maps kept in NHCWB16 (bricks of 16 channels, whole bricks
// read and written in longer bursts) rather than NHWC, as Vela keeps those
// between NPU operations: the region's intermediates that only operations
// reading and writing whole 4-D maps touch, of a depth in whole bricks (a
// padded brick would cost scratch on every pixel), or of one pixel (a few
// bytes of padding at most). Not the region's inputs and outputs (the CPU's
// code and a Vela file's caller see NHWC), nor what a view shares or an
// element-wise operation broadcasts. A fully connected layer reads and
// writes its maps flat, which bricks leave in the same byte order only when
// the map is one pixel.
bool isOnePixel(const ir::Tensor& t) {
  return !t.shape.empty() && t.elementCount() == static_cast<std::int64_t>(t.shape.back());
}

std::set<int> brickedFeatureMaps(const ir::Graph& graph, int first, int last,
                                 const std::vector<int>& inputs, const std::vector<int>& outputs) {
  std::set<int> bricked, excluded(inputs.begin(), inputs.end());
  excluded.insert(outputs.begin(), outputs.end());
  for (int i = first; i <= last; ++i) {
    const ir::Operator& o = graph.operators[static_cast<std::size_t>(i)];
    std::vector<int> maps;
    for (const int t : o.inputs) {
      if (t != ir::kNoTensor && !graph.tensor(t).isConstant) maps.push_back(t);
    }
    maps.insert(maps.end(), o.outputs.begin(), o.outputs.end());
    // A SOFTMAX reads its input as rows of one shape and another.
    const bool whole = !ir::isNoCopyView(graph, o) && o.type != ir::OpType::Concatenation &&
                       o.type != ir::OpType::Softmax;
    for (const int t : maps) {
      const bool broadcast =
          isBinary(o) && graph.tensor(t).shape != graph.tensor(o.outputs.front()).shape;
      const bool flatRows = o.type == ir::OpType::FullyConnected && !isOnePixel(graph.tensor(t));
      if (!whole || broadcast || flatRows) excluded.insert(t);
    }
    for (const int t : o.outputs) bricked.insert(t);
  }
  for (const int t : excluded) bricked.erase(t);
  std::erase_if(bricked, [&graph](int t) {
    const ir::Tensor& tensor = graph.tensor(t);
    return tensor.shape.empty() || (tensor.shape.back() % 16 != 0 && !isOnePixel(tensor));
  });
  return bricked;
}

// A feature map in the scratch: the tensors that share its bytes (a view
// and its input), and the steps it lives over; or (no tensors) an
// operation's weights and scales, DMA'd in during the operation before it.
struct ScratchBuffer {
  std::vector<int> tensors;
  std::int64_t bytes = 0;
  int first = 0, last = 0;
  std::int64_t offset = -1;
};

class RegionCompiler {
 public:
  RegionCompiler(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch,
                 const ConstantBufferingPlan& buffered,
                 const std::map<int, LoweredOperation>& lowered, const std::vector<int>& inputs,
                 const std::vector<int>& outputs, const std::set<int>& bricked)
      : graph_(graph),
        first_(first),
        last_(last),
        arch_(arch),
        buffered_(buffered),
        lowered_(lowered),
        inputs_(inputs),
        outputs_(outputs),
        bricked_(bricked) {}

  ir::Graph run() {
    sizeBufferedConstants();
    planScratch();
    lowerOperations();
    return replaceRegion();
  }

 private:
  const ir::Operator& op(int index) const {
    return graph_.operators.at(static_cast<std::size_t>(index));
  }
  bool inRegion(int index) const { return index >= first_ && index <= last_; }

  // The sizes of the constants of the operations buffered_ names, and the
  // step of the operation before each, beside which the DMA runs.
  void sizeBufferedConstants() {
    int previous = -1;
    for (int i = first_; i <= last_; ++i) {
      const ir::Operator& o = op(i);
      if (ir::isNoCopyView(graph_, o)) continue;
      const auto buffering = buffered_.find(i);
      if (buffering != buffered_.end()) {
        const auto most = mostBuffering(o);
        if (previous < 0 || !most ||
            (buffering->second == ConstantBuffering::ScalesAndWeights &&
             *most == ConstantBuffering::Scales)) {
          throw NpuLoweringError("operator " + std::to_string(i) + " (" + o.typeName() +
                                 "): its constants cannot be buffered so");
        }
        const LoweredOperation& sized = lowered_.at(i);
        const bool weights = buffering->second == ConstantBuffering::ScalesAndWeights;
        const auto bytes = static_cast<std::int64_t>(constantsBytes(sized, weights));
        bufferedConstants_[i] = {previous - first_, bytes, weights};
      }
      previous = i;
    }
  }

  // Buffer of each feature map, views joined with their inputs, and of each
  // operation's buffered constants.
  void planScratch() {
    const int steps = last_ - first_ + 1;
    const auto bufferOf = [this](int tensor) -> ScratchBuffer& {
      const auto found = bufferIndex_.find(tensor);
      if (found != bufferIndex_.end()) return buffers_[found->second];
      bufferIndex_[tensor] = buffers_.size();
      buffers_.push_back({{tensor}, bytesOf(tensor), 1 << 30, -1, -1});
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
    for (auto& [index, constants] : bufferedConstants_) {
      constants.buffer = buffers_.size();
      buffers_.push_back({{}, constants.bytes, constants.dmaStep, index - first_, -1});
    }
    for (const auto& [index, lowered] : lowered_) {
      if (lowered.temporaryBytes == 0) continue;
      temporaries_[index] = buffers_.size();
      buffers_.push_back({{}, lowered.temporaryBytes, index - first_, index - first_, -1});
    }
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

  // A bricked map's depth takes whole bricks of 16 channels.
  std::int64_t bytesOf(int tensor) const {
    if (bricked_.count(tensor) == 0) return graph_.tensor(tensor).byteSize();
    return static_cast<std::int64_t>(featureMapOf(graph_, tensor, false, 0, true).bytes());
  }

  std::int64_t offsetOf(int tensor) const { return buffers_[bufferIndex_.at(tensor)].offset; }

  void lowerOperations() {
    if (arch_.cores > 1) emitParallelMode(writer_, arch_.cores);
    for (int i = first_; i <= last_; ++i) {
      const ir::Operator& o = op(i);
      if (ir::isNoCopyView(graph_, o)) continue;
      // The operation as lowered once, its feature maps' bases the tensors'
      // indices (NpuRegionCompiler's constructor): now their places in the
      // scratch.
      LoweredOperation lowered = lowered_.at(i);
      // The operator's own maps: its temporaries in their scratch buffer,
      // its constants after the flash so far.
      const auto temporaries = temporaries_.find(i);
      const std::uint64_t temporaryBase =
          temporaries == temporaries_.end()
              ? 0
              : static_cast<std::uint64_t>(buffers_[temporaries->second].offset);
      std::uint64_t constantBase = 0;
      if (!lowered.constantMaps.empty()) {
        flash_.resize(static_cast<std::size_t>(alignUp(static_cast<std::int64_t>(flash_.size()))));
        constantBase = flash_.size();
        flash_.insert(flash_.end(), lowered.constantMaps.begin(), lowered.constantMaps.end());
      }
      const auto place = [&](NpuOperation& operation) {
        const auto at = [&](NpuFeatureMap& map) {
          switch (map.home) {
            case NpuMapHome::Tensor:
              map.base =
                  static_cast<std::uint64_t>(offsetOf(static_cast<int>(map.base))) + map.offset;
              break;
            case NpuMapHome::Temporary:
              map.base += temporaryBase;
              break;
            case NpuMapHome::Constant:
              map.base += constantBase;
              break;
          }
        };
        at(operation.ifm);
        if (operation.kind == NpuOperationKind::Elementwise) at(operation.ifm2);
        at(operation.ofm);
      };
      place(lowered.operation);
      for (NpuOperation& follower : lowered.followers) place(follower);
      ConstantsPlacement placed;
      if (lowered.hasConstants()) placed = appendConstants(lowered, flash_);
      const auto buffered = bufferedConstants_.find(i);
      if (buffered != bufferedConstants_.end()) {
        // The scales, and the weights after them as they lie in the flash,
        // copied in one DMA started after the previous operation (the
        // stream so far). The scratch plan gives the copy bytes free from
        // that operation on, not while the one before it runs: the copy
        // starts once at most the previous operation is still running.
        NpuOperation& n = lowered.operation;
        const auto destination =
            static_cast<std::uint64_t>(buffers_[buffered->second.buffer].offset);
        const std::uint64_t end = buffered->second.weights ? placed.end : placed.scalesEnd;
        const auto length = static_cast<std::uint32_t>(end - placed.begin);
        emitKernelWait(writer_, 1);
        emitDma(writer_, {{0, placed.begin, length}, {1, destination, length}});
        const auto relocate = [&](NpuRange& range) {
          range = {1, destination + (range.base - placed.begin), range.length};
        };
        for (std::size_t core = 0; core < n.scales.size(); ++core) {
          relocate(n.scales[core]);
          if (buffered->second.weights) relocate(n.weights[core]);
        }
        n.waitsForDma = true;
      }
      if (!lowered.lookupTable.empty()) {
        // The table into the SHRAM's table area, which an operation still
        // running may hold accumulators in: once every operation is done.
        flash_.resize(static_cast<std::size_t>(alignUp(static_cast<std::int64_t>(flash_.size()))));
        const std::uint64_t source = flash_.size();
        flash_.insert(flash_.end(), lowered.lookupTable.begin(), lowered.lookupTable.end());
        emitKernelWait(writer_, 0);
        NpuDma table{{0, source, static_cast<std::uint32_t>(lowered.lookupTable.size())},
                     {0, arch_.config.lut_shram_address, 0}};
        table.intoShram = true;
        emitDma(writer_, table);
        lowered.operation.waitsForDma = true;
      }
      emitNpuOperation(writer_, lowered.operation);
      for (const NpuOperation& follower : lowered.followers) emitNpuOperation(writer_, follower);
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
    // The model's multiply-accumulates, as the operators it stands for
    // count them (the stream's own count differs where an operator runs as
    // a chain of operations, as SOFTMAX does).
    for (int i = first_; i <= last_; ++i) attrs.macs += analysis::operatorCost(graph_, op(i)).macs;
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
  const ConstantBufferingPlan& buffered_;
  const std::map<int, LoweredOperation>& lowered_;
  const std::vector<int>& inputs_;
  const std::vector<int>& outputs_;
  const std::set<int>& bricked_;
  std::vector<ScratchBuffer> buffers_;
  std::map<int, std::size_t> bufferIndex_;
  // Operations whose constants are DMA'd into the scratch, by operator index.
  struct BufferedConstants {
    int dmaStep = 0;  // the step of the operation the copy runs beside
    std::int64_t bytes = 0;
    bool weights = false;    // the weights too, not only the scales
    std::size_t buffer = 0;  // into buffers_
  };
  std::map<int, BufferedConstants> bufferedConstants_;
  // The scratch buffer of each operation's temporaries, by operator index.
  std::map<int, std::size_t> temporaries_;
  std::int64_t scratchBytes_ = 0;
  std::vector<std::uint8_t> flash_;
  CommandStreamWriter writer_;
};

}  // namespace

NpuFeatureMap featureMapOf(const ir::Graph& graph, int tensor, bool flat, std::uint64_t base,
                           bool bricks) {
  const ir::Tensor& t = graph.tensor(tensor);
  if (flat) {
    const int elements = static_cast<int>(t.elementCount());
    return bricks ? NpuFeatureMap::bricks(1, base, 1, 1, elements)
                  : NpuFeatureMap::nhwc(1, base, 1, 1, elements);
  }
  if (t.shape.size() > 4) {
    throw NpuLoweringError(t.name + " has rank " + std::to_string(t.shape.size()) +
                           ", above the NPU's 4");
  }
  int dims[4] = {1, 1, 1, 1};
  for (std::size_t i = 0; i < t.shape.size(); ++i) dims[4 - t.shape.size() + i] = t.shape[i];
  if (dims[0] != 1) throw NpuLoweringError(t.name + " has a batch other than 1");
  if (bricks) return NpuFeatureMap::bricks(1, base, dims[1], dims[2], dims[3]);
  return NpuFeatureMap::nhwc(1, base, dims[1], dims[2], dims[3]);
}

bool npuRegionTakes(const ir::Graph& graph, const ir::Operator& op) {
  return isConvolution(op) || isPool(op) || isBinary(op) || isLookupTableOperator(op) ||
         op.type == ir::OpType::Concatenation || op.type == ir::OpType::Softmax ||
         op.type == ir::OpType::TransposeConv || isResize(op) || ir::isNoCopyView(graph, op);
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

NpuRegionCompiler::NpuRegionCompiler(const ir::Graph& graph, int first, int last,
                                     const NpuArchitecture& arch)
    : graph_(graph), first_(first), last_(last), arch_(arch) {
  if (first < 0 || last < first || static_cast<std::size_t>(last) >= graph.operators.size()) {
    throw NpuLoweringError("no operators " + std::to_string(first) + ".." + std::to_string(last) +
                           " in the graph");
  }
  findBoundary(graph, first, last, inputs_, outputs_);
  bricked_ = brickedFeatureMaps(graph, first, last, inputs_, outputs_);
  // Each feature map's base is its tensor's index until a compilation
  // places it: lowering reads only the maps' extents and layout, and the
  // weights' encoding, the costly part, is then done once for every plan
  // compiled.
  for (int i = first; i <= last; ++i) {
    const ir::Operator& o = graph.operators.at(static_cast<std::size_t>(i));
    if (ir::isNoCopyView(graph, o)) continue;
    lowered_[i] = lowerOperator(graph, o, arch, [this, &graph](int tensor, bool flat) {
      return featureMapOf(graph, tensor, flat, static_cast<std::uint64_t>(tensor),
                          bricked_.count(tensor) != 0);
    });
  }
}

ir::Graph NpuRegionCompiler::compile(const ConstantBufferingPlan& buffering) const {
  return RegionCompiler(graph_, first_, last_, arch_, buffering, lowered_, inputs_, outputs_,
                        bricked_)
      .run();
}

ConstantBufferingPlan NpuRegionCompiler::bufferingCandidates() const {
  ConstantBufferingPlan candidates;
  bool afterAnother = false;
  for (const auto& [index, lowered] : lowered_) {
    const ir::Operator& o = graph_.operators.at(static_cast<std::size_t>(index));
    const auto most = mostBuffering(o);
    if (afterAnother && most && o.type != ir::OpType::FullyConnected) candidates[index] = *most;
    afterAnother = true;
  }
  return candidates;
}

ir::Graph withNpuRegion(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch,
                        const ConstantBufferingPlan& buffering) {
  return NpuRegionCompiler(graph, first, last, arch).compile(buffering);
}

}  // namespace loupe::ethosu
