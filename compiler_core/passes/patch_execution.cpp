#include "passes/patch_execution.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "reference/quantized_params.h"

namespace loupe::passes {

namespace {

// The operator's padding spelled out, with the rows before and after its
// strip's input rows as the strip needs them; the columns as the model's.
void padRows(const ir::Graph& graph, ir::Operator& op, int top, int bottom) {
  const ir::Tensor& in = graph.tensor(op.inputs[0]);
  const int inH = static_cast<int>(in.shape[1]), inW = static_cast<int>(in.shape[2]);
  auto spelled = [&](auto& attrs, const reference::WindowGeometry& geometry) {
    ir::ExplicitPadding padding =
        attrs.explicitPadding ? *attrs.explicitPadding : reference::explicitPaddingOf(geometry);
    padding.top = top;
    padding.bottom = bottom;
    attrs.explicitPadding = padding;
  };
  if (auto* conv = std::get_if<ir::Conv2DAttrs>(&op.attributes)) {
    const ir::Tensor& filter = graph.tensor(op.inputs[1]);
    spelled(*conv, reference::windowGeometry(*conv, inH, inW, filter.shape[1], filter.shape[2]));
  } else if (auto* dw = std::get_if<ir::DepthwiseConv2DAttrs>(&op.attributes)) {
    const ir::Tensor& filter = graph.tensor(op.inputs[1]);
    spelled(*dw, reference::windowGeometry(*dw, inH, inW, filter.shape[1], filter.shape[2]));
  } else if (auto* pool = std::get_if<ir::Pool2DAttrs>(&op.attributes)) {
    spelled(*pool, reference::windowGeometry(*pool, inH, inW));
  }
}

ir::ConstantBytes int32Bytes(const std::vector<std::int32_t>& values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return ir::ConstantBytes(std::move(bytes));
}

}  // namespace

PatchedGraph executeInPatches(const ir::Graph& graph, const memory::PatchStage& stage) {
  PatchedGraph result;
  ir::Graph& out = result.graph;
  out = graph;
  out.operators.clear();
  const auto strips = memory::patchStrips(graph, stage.operators, stage.strips);
  const ir::Operator& first = graph.operators.at(static_cast<std::size_t>(stage.operators.front()));
  const ir::Operator& last = graph.operators.at(static_cast<std::size_t>(stage.operators.back()));

  auto addTensor = [&](const ir::Tensor& like, const std::string& name, int rows) {
    ir::Tensor t;
    t.index = static_cast<int>(out.tensors.size());
    t.name = name;
    t.dtype = like.dtype;
    t.shape = like.shape;
    t.shape[1] = rows;
    t.quantization = like.quantization;
    out.tensors.push_back(std::move(t));
    return out.tensors.back().index;
  };
  auto addConstant = [&](const std::string& name, const std::vector<std::int32_t>& values) {
    ir::Tensor t;
    t.index = static_cast<int>(out.tensors.size());
    t.name = name;
    t.dtype = ir::DType::Int32;
    t.shape = {static_cast<std::int32_t>(values.size())};
    t.data = int32Bytes(values);
    t.isConstant = true;
    out.tensors.push_back(std::move(t));
    return out.tensors.back().index;
  };
  auto emit = [&](ir::Operator op) {
    op.index = static_cast<int>(out.operators.size());
    out.operators.push_back(std::move(op));
    return out.operators.back().index;
  };

  auto emitStage = [&] {
    const ir::Tensor& input = graph.tensor(first.inputs[0]);
    std::vector<int> pieces;
    for (std::size_t s = 0; s < strips.size(); ++s) {
      const std::string suffix = "/strip" + std::to_string(s);
      const memory::RowRange rows = strips[s].front().input;
      ir::Operator slice;
      slice.type = ir::OpType::Slice;
      slice.isView = true;
      slice.placement = first.placement;
      slice.sourceOperators = first.modelOperators();
      const std::vector<std::int32_t> begin{0, rows.begin, 0, 0};
      std::vector<std::int32_t> size(input.shape.begin(), input.shape.end());
      size[1] = rows.count();
      slice.inputs = {first.inputs[0], addConstant(input.name + suffix + "/begin", begin),
                      addConstant(input.name + suffix + "/size", size)};
      slice.outputs = {addTensor(input, input.name + suffix, rows.count())};
      int previous = slice.outputs[0];
      result.stageOperators.push_back(emit(std::move(slice)));
      for (std::size_t i = 0; i < stage.operators.size(); ++i) {
        const ir::Operator& original =
            graph.operators.at(static_cast<std::size_t>(stage.operators[i]));
        const memory::OperatorStrip& strip = strips[s][i];
        ir::Operator op = original;
        op.sourceOperators = original.modelOperators();
        op.inputs[0] = previous;
        const ir::Tensor& whole = graph.output(original, 0);
        op.outputs = {addTensor(whole, whole.name + suffix, strip.output.count())};
        padRows(out, op, strip.padTop, strip.padBottom);
        previous = op.outputs[0];
        result.stageOperators.push_back(emit(std::move(op)));
      }
      pieces.push_back(previous);
    }
    ir::Operator concat;
    concat.type = ir::OpType::Concatenation;
    concat.isView = true;
    concat.placement = last.placement;
    concat.sourceOperators = last.modelOperators();
    concat.attributes = ir::ConcatenationAttrs{1, ir::Activation::None};
    concat.inputs = pieces;
    concat.outputs = last.outputs;
    result.stageOperators.push_back(emit(std::move(concat)));
  };

  std::map<int, int>& renumbered = result.renumbered;
  for (const ir::Operator& op : graph.operators) {
    if (op.index == first.index) emitStage();
    if (std::find(stage.operators.begin(), stage.operators.end(), op.index) !=
        stage.operators.end()) {
      continue;
    }
    ir::Operator kept = op;
    if (static_cast<int>(out.operators.size()) != op.index) {
      kept.sourceOperators = op.modelOperators();
    }
    renumbered[op.index] = emit(std::move(kept));
  }

  for (ir::ExternalFunction& region : out.externalFunctions) {
    for (int& index : region.operators) index = renumbered.at(index);
  }
  if (!graph.mainCalls.empty()) {
    out.mainCalls.clear();
    for (const ir::MainCall& call : graph.mainCalls) {
      if (call.operatorIndex == first.index) {
        for (int index : result.stageOperators) out.mainCalls.push_back({index, -1});
      } else if (const auto it = renumbered.find(call.operatorIndex); it != renumbered.end()) {
        out.mainCalls.push_back({it->second, -1});
      } else if (call.operatorIndex < 0) {
        out.mainCalls.push_back(call);
      }
    }
  }
  return result;
}

}  // namespace loupe::passes
