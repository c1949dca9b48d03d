#include "memory/patch_bound.h"

#include <algorithm>
#include <optional>

#include "analysis/operator_cost.h"
#include "reference/quantized_params.h"

namespace loupe::memory {

namespace {

// How an operator's output rows map to the input rows its windows read.
struct RowWindow {
  int stride = 1, dilation = 1, taps = 1, padTop = 0;
};

// The row window of a spatial operator on NHWC tensors, or none.
std::optional<RowWindow> rowWindowOf(const ir::Graph& graph, const ir::Operator& op) {
  if (op.inputs.empty() || op.inputs[0] < 0 || op.outputs.size() != 1) return std::nullopt;
  const ir::Tensor& in = graph.tensor(op.inputs[0]);
  const ir::Tensor& out = graph.output(op, 0);
  if (in.shape.size() != 4 || out.shape.size() != 4 || in.shape[0] != 1) return std::nullopt;
  const int inH = static_cast<int>(in.shape[1]), inW = static_cast<int>(in.shape[2]);
  // The windows the reference kernels and the lowerings walk.
  switch (op.type) {
    case ir::OpType::Conv2D:
    case ir::OpType::DepthwiseConv2D: {
      const ir::Tensor* filter = graph.input(op, 1);
      if (filter == nullptr || filter->shape.size() != 4) return std::nullopt;
      const int taps = static_cast<int>(filter->shape[1]);
      const int tapsW = static_cast<int>(filter->shape[2]);
      if (op.type == ir::OpType::Conv2D) {
        const auto& a = std::get<ir::Conv2DAttrs>(op.attributes);
        return RowWindow{a.strideH, a.dilationH, taps,
                         reference::windowGeometry(a, inH, inW, taps, tapsW).padHeight};
      }
      const auto& a = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
      return RowWindow{a.strideH, a.dilationH, taps,
                       reference::windowGeometry(a, inH, inW, taps, tapsW).padHeight};
    }
    case ir::OpType::AveragePool2D:
    case ir::OpType::MaxPool2D: {
      const auto& a = std::get<ir::Pool2DAttrs>(op.attributes);
      return RowWindow{a.strideH, 1, a.filterH, reference::windowGeometry(a, inH, inW).padHeight};
    }
    default:
      return std::nullopt;
  }
}

// The rows output rows `rows` read and the padding rows beyond the input's
// `height` they reach.
OperatorStrip stripOf(const RowWindow& w, RowRange rows, int height) {
  const int first = rows.begin * w.stride - w.padTop;
  const int last = (rows.end - 1) * w.stride - w.padTop + (w.taps - 1) * w.dilation;
  OperatorStrip strip;
  strip.output = rows;
  strip.input = {std::max(first, 0), std::min(last + 1, height)};
  strip.padTop = strip.input.begin - first;
  strip.padBottom = last + 1 - strip.input.end;
  return strip;
}

std::int64_t rowBytes(const ir::Tensor& t) {
  return t.byteSize() / std::max<std::int64_t>(t.shape[1], 1);
}

}  // namespace

std::vector<std::vector<OperatorStrip>> patchStrips(const ir::Graph& graph,
                                                    const std::vector<int>& operators, int strips) {
  const ir::Tensor& last = graph.output(graph.operators.at(operators.back()), 0);
  const int height = static_cast<int>(last.shape[1]);
  const int rowsPerStrip = (height + strips - 1) / strips;
  std::vector<std::vector<OperatorStrip>> result;
  for (int s = 0; s < strips; ++s) {
    std::vector<OperatorStrip> strip(operators.size());
    RowRange rows{s * rowsPerStrip, std::min((s + 1) * rowsPerStrip, height)};
    for (std::size_t i = operators.size(); i-- > 0;) {
      const ir::Operator& op = graph.operators.at(operators[i]);
      strip[i] = stripOf(*rowWindowOf(graph, op), rows,
                         static_cast<int>(graph.tensor(op.inputs[0]).shape[1]));
      rows = strip[i].input;
    }
    result.push_back(std::move(strip));
  }
  return result;
}

PatchBound patchLowerBound(const ir::Graph& graph, const WorkspaceAnalysis& analysis,
                           const std::vector<OverlapAllowance>& allowances,
                           double maxExtraMacsFraction) {
  PatchBound result;
  for (int index : analysis.order) {
    result.modelMacs += analysis::operatorCost(graph, graph.operators.at(index)).macs;
  }
  // The bytes each step needs with the allowances.
  const std::vector<std::int64_t> live = overlapBytesPerStep(analysis.buffers, allowances);
  const std::int64_t whole = live.empty() ? 0 : *std::max_element(live.begin(), live.end());
  result.wholeBound = whole;
  auto scratchOf = [&](int op) {
    std::int64_t bytes = 0;
    for (const WorkspaceBuffer& b : analysis.buffers) {
      if (b.scratchOf == op) bytes += b.size;
    }
    return bytes;
  };

  // The chain: operators on the CPU (an NPU region runs as one call), the
  // first reading a model input, each other one the output of the one
  // before, which nothing else reads and the model does not return.
  std::vector<int> chain;
  for (std::size_t step = 0; step < analysis.order.size(); ++step) {
    const ir::Operator& op = graph.operators.at(analysis.order[step]);
    if (!rowWindowOf(graph, op) || op.placement.region >= 0) break;
    if (chain.empty()) {
      // The first reads a model input, which is the application's buffer.
      if (std::find(graph.inputs.begin(), graph.inputs.end(), op.inputs[0]) == graph.inputs.end()) {
        break;
      }
    } else {
      const int previous = graph.operators.at(chain.back()).outputs[0];
      if (op.inputs[0] != previous) break;
      int readers = 0;
      for (const ir::Operator& other : graph.operators) {
        readers += static_cast<int>(std::count(other.inputs.begin(), other.inputs.end(), previous));
      }
      const bool returned =
          std::find(graph.outputs.begin(), graph.outputs.end(), previous) != graph.outputs.end();
      if (readers != 1 || returned) break;
    }
    chain.push_back(op.index);
  }

  for (std::size_t length = 2; length <= chain.size(); ++length) {
    const ir::Tensor& last = graph.output(graph.operators.at(chain[length - 1]), 0);
    const int height = static_cast<int>(last.shape[1]);
    // After the stage: the steps from the one after its last operator.
    std::int64_t rest = 0;
    for (std::size_t s = length; s < live.size(); ++s) rest = std::max(rest, live[s]);
    for (int strips = 2; strips <= height; ++strips) {
      const int rowsPerStrip = (height + strips - 1) / strips;
      if ((strips - 1) * rowsPerStrip >= height) continue;  // the same strips as fewer
      PatchStage stage;
      stage.operators.assign(chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(length));
      stage.strips = strips;
      std::vector<int> maxRows(length, 0);  // per operator: its output rows in one strip
      std::vector<std::int64_t> rowsComputed(length, 0);
      for (const std::vector<OperatorStrip>& strip : patchStrips(graph, stage.operators, strips)) {
        for (std::size_t i = 0; i < length; ++i) {
          maxRows[i] = std::max(maxRows[i], strip[i].output.count());
          rowsComputed[i] += strip[i].output.count();
        }
      }
      std::int64_t peak = 0;
      for (std::size_t i = 0; i < length; ++i) {
        const ir::Operator& op = graph.operators.at(chain[i]);
        const std::int64_t in = i == 0 ? 0 : stage.stripBytes[i - 1];
        const std::int64_t out = i + 1 == length ? 0 : maxRows[i] * rowBytes(graph.output(op, 0));
        if (i + 1 < length) stage.stripBytes.push_back(out);
        peak = std::max(peak, in + out + scratchOf(op.index));
        const std::int64_t macs = analysis::operatorCost(graph, op).macs;
        const std::int64_t outRows = graph.output(op, 0).shape[1];
        stage.extraMacs += macs * (rowsComputed[i] - outRows) / std::max<std::int64_t>(outRows, 1);
      }
      // The stage reads the application's input; its last output is
      // written strip by strip and stays whole.
      stage.stageBytes = last.byteSize() + peak;
      stage.restBytes = rest;
      stage.bound = std::max(stage.stageBytes, rest);
      if (static_cast<double>(stage.extraMacs) >
          maxExtraMacsFraction * static_cast<double>(result.modelMacs)) {
        continue;
      }
      if (stage.bound >= whole) continue;
      if (!result.found || stage.bound < result.best.bound ||
          (stage.bound == result.best.bound && stage.extraMacs < result.best.extraMacs)) {
        result.found = true;
        result.best = std::move(stage);
      }
    }
  }
  return result;
}

}  // namespace loupe::memory
