#include "ir/graph_printer.h"

#include <charconv>

namespace loupe::ir {

namespace {

template <typename T>
std::string listText(const std::vector<T>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) text += ",";
    text += std::to_string(values[i]);
  }
  return text + "]";
}

std::string window(const char* name, int h, int w) {
  return std::string(name) + "=" + std::to_string(h) + "x" + std::to_string(w);
}

std::string paddingText(Padding padding, const std::optional<ExplicitPadding>& explicitPadding) {
  return "padding=" + (explicitPadding ? explicitPaddingToString(*explicitPadding)
                                       : std::string(paddingName(padding)));
}

std::string fusedActivation(Activation activation) {
  return activation == Activation::None ? ""
                                        : " activation=" + std::string(activationName(activation));
}

struct AttributePrinter {
  std::string operator()(std::monostate) const { return ""; }
  std::string operator()(const Conv2DAttrs& a) const {
    return paddingText(a.padding, a.explicitPadding) + " " +
           window("stride", a.strideH, a.strideW) + " " +
           window("dilation", a.dilationH, a.dilationW) + fusedActivation(a.activation);
  }
  std::string operator()(const DepthwiseConv2DAttrs& a) const {
    return paddingText(a.padding, a.explicitPadding) + " " +
           window("stride", a.strideH, a.strideW) + " " +
           window("dilation", a.dilationH, a.dilationW) +
           " depth_multiplier=" + std::to_string(a.depthMultiplier) + fusedActivation(a.activation);
  }
  std::string operator()(const Pool2DAttrs& a) const {
    return paddingText(a.padding, a.explicitPadding) + " " +
           window("filter", a.filterH, a.filterW) + " " + window("stride", a.strideH, a.strideW) +
           fusedActivation(a.activation);
  }
  std::string operator()(const FullyConnectedAttrs& a) const {
    std::string text = a.keepNumDims ? "keep_num_dims=true" : "";
    const std::string act = fusedActivation(a.activation);
    return text.empty() && !act.empty() ? act.substr(1) : text + act;
  }
  std::string operator()(const SoftmaxAttrs& a) const { return "beta=" + floatToString(a.beta); }
  std::string operator()(const ConcatenationAttrs& a) const {
    return "axis=" + std::to_string(a.axis) + fusedActivation(a.activation);
  }
  std::string operator()(const ElementwiseAttrs& a) const {
    const std::string act = fusedActivation(a.activation);
    return act.empty() ? "" : act.substr(1);
  }
  std::string operator()(const ReshapeAttrs& a) const {
    return a.newShape.empty() ? "" : "new_shape=" + listText(a.newShape);
  }
  std::string operator()(const SqueezeAttrs& a) const {
    return a.squeezeDims.empty() ? "" : "squeeze_dims=" + listText(a.squeezeDims);
  }
  std::string operator()(const LeakyReluAttrs& a) const {
    return "alpha=" + floatToString(a.alpha);
  }
  std::string operator()(const ReducerAttrs& a) const {
    return a.keepDims ? "keep_dims=true" : "keep_dims=false";
  }
  std::string operator()(const StridedSliceAttrs& a) const {
    return "begin_mask=" + std::to_string(a.beginMask) + " end_mask=" + std::to_string(a.endMask) +
           " ellipsis_mask=" + std::to_string(a.ellipsisMask) +
           " new_axis_mask=" + std::to_string(a.newAxisMask) +
           " shrink_axis_mask=" + std::to_string(a.shrinkAxisMask) + (a.offset ? " offset" : "");
  }
  std::string operator()(const TransposeConvAttrs& a) const {
    return "padding=" + std::string(paddingName(a.padding)) + " " +
           window("stride", a.strideH, a.strideW) + fusedActivation(a.activation);
  }
  std::string operator()(const SvdfAttrs& a) const {
    return "rank=" + std::to_string(a.rank) + fusedActivation(a.activation);
  }
  std::string operator()(const SequenceLstmAttrs& a) const {
    return "activation=" + std::string(activationName(a.activation)) +
           " cell_clip=" + floatToString(a.cellClip) + " proj_clip=" + floatToString(a.projClip) +
           (a.timeMajor ? " time_major" : "");
  }
  std::string operator()(const OptionAttrs& a) const {
    std::string text;
    for (const auto& [name, value] : a.values) {
      text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
    }
    return text;
  }
  std::string operator()(const OpaqueAttrs& a) const {
    return a.customCode.empty()
               ? "builtin_code=" + std::to_string(a.builtinCode)
               : "custom_code=\"" + a.customCode +
                     "\" custom_options=" + std::to_string(a.customOptions.size()) + "B";
  }
  std::string operator()(const EthosUAttrs& a) const {
    std::string text = "accelerator=" + std::string(ethosuAcceleratorName(a.accelerator)) +
                       " npu_operations=" + std::to_string(a.npuOperations) +
                       " scratch=" + std::to_string(a.scratchBytes) +
                       " fast_scratch=" + std::to_string(a.fastScratchBytes);
    if (a.fastScratchOffset >= 0) text += "@" + std::to_string(a.fastScratchOffset);
    return text + " input_offsets=" + listText(a.inputOffsets) +
           " output_offsets=" + listText(a.outputOffsets);
  }
};

// " fused from #3,#4" when the operator stands for other model operators than
// itself, " view" for a no-copy operator.
std::string provenance(const Operator& op) {
  std::string text;
  if (!op.sourceOperators.empty() && op.sourceOperators != std::vector<int>{op.index}) {
    text += op.sourceOperators.size() > 1 ? " fused from " : " from ";
    for (std::size_t i = 0; i < op.sourceOperators.size(); ++i) {
      text += (i ? ",#" : "#") + std::to_string(op.sourceOperators[i]);
    }
  }
  return op.isView ? text + " view" : text;
}

std::string operand(const Graph& graph, int index) {
  if (index == kNoTensor) return "none";
  const Tensor& tensor = graph.tensor(index);
  return (tensor.isConstant ? "%c" : "%") + std::to_string(index);
}

// " target npu region npu_0" once annotate_targets (and partition_graph) ran.
std::string placement(const Graph& graph, const Operator& op) {
  if (op.placement.target.empty()) {
    return op.placement.rejections.empty() ? "" : " target none";
  }
  std::string text = " target " + op.placement.target;
  // Before partition_graph names the regions, their numbers.
  if (const std::string name = regionName(graph, op); !name.empty()) {
    text += " region " + name;
  } else if (op.placement.region >= 0) {
    text += " region " + std::to_string(op.placement.region);
  }
  return text;
}

std::string tensorList(const std::vector<int>& tensors, const char* prefix) {
  std::string text;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    text += (i ? ", " : "") + std::string(prefix) + std::to_string(tensors[i]);
  }
  return text;
}

// The external functions and main's calls, as TVM prints a partitioned module.
std::string partition(const Graph& graph) {
  if (graph.externalFunctions.empty()) return "";
  std::string text;
  for (const ExternalFunction& f : graph.externalFunctions) {
    text += "def @" + f.name + "(" + tensorList(f.inputs, "%") + ") -> (" +
            tensorList(f.outputs, "%") + ") target " + f.target + " {ops " +
            tensorList(f.operators, "") + "; consts " + tensorList(f.constants, "%c") + "}\n";
  }
  text += "def @main:";
  for (std::size_t i = 0; i < graph.mainCalls.size(); ++i) {
    const MainCall& call = graph.mainCalls[i];
    text +=
        (i ? ", " : " ") +
        (call.externalFunction >= 0
             ? "@" + graph.externalFunctions[static_cast<std::size_t>(call.externalFunction)].name
             : "op " + std::to_string(call.operatorIndex));
  }
  return text + "\n";
}

}  // namespace

std::string shapeToString(const Shape& shape) {
  return listText(shape);
}

std::string floatToString(float value) {
  // printf's %.9g, but in the "C" locale whatever the process's LC_NUMERIC
  // (Qt sets it from the user's locale: de_DE would write 0,5).
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, static_cast<double>(value),
                                 std::chars_format::general, 9)
                       .ptr;
  return std::string(buffer, end);
}

std::string groupDigits(std::int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
  return (value < 0 ? "-" : "") + digits;
}

std::string quantizationToString(const Quantization& q) {
  if (!q.isQuantized()) return "";
  if (!q.isPerChannel()) {
    return "q(" + floatToString(q.scale()) + ", " + std::to_string(q.zeroPoint()) + ")";
  }
  return "q(per-channel axis " + std::to_string(q.quantizedDimension) + ", " +
         std::to_string(q.scales.size()) + " scales)";
}

std::string tensorTypeToString(const Tensor& tensor) {
  std::string text = std::string(dtypeName(tensor.dtype)) + shapeToString(tensor.shape);
  if (const auto q = quantizationToString(tensor.quantization); !q.empty()) text += " " + q;
  return text;
}

std::string attributesToString(const Attributes& attributes) {
  return std::visit(AttributePrinter{}, attributes);
}

std::string printGraph(const Graph& graph) {
  std::string text = "graph " + graph.name + "\n";
  for (int index : graph.inputs) {
    const Tensor& t = graph.tensor(index);
    text += "  input  %" + std::to_string(index) + " \"" + t.name +
            "\" : " + tensorTypeToString(t) + "\n";
  }
  for (const Tensor& t : graph.tensors) {
    if (!t.isConstant) continue;
    text += "  const  %c" + std::to_string(t.index) + " \"" + t.name +
            "\" : " + tensorTypeToString(t) + "\n";
  }
  for (const Operator& op : graph.operators) {
    text += "  ";
    for (std::size_t i = 0; i < op.outputs.size(); ++i) {
      text += (i ? ", " : "") + operand(graph, op.outputs[i]);
    }
    text += " = " + op.typeName() + "(";
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      text += (i ? ", " : "") + operand(graph, op.inputs[i]);
    }
    text += ")";
    if (const auto attrs = attributesToString(op.attributes); !attrs.empty()) {
      text += " {" + attrs + "}";
    }
    text += " :";
    for (int index : op.outputs) {
      const Tensor& t = graph.tensor(index);
      text += " \"" + t.name + "\" " + tensorTypeToString(t);
    }
    text += "  // op " + std::to_string(op.index) + " v" + std::to_string(op.version) +
            provenance(op) + placement(graph, op) + "\n";
  }
  for (int index : graph.outputs) {
    text += "  output %" + std::to_string(index) + "\n";
  }
  return text + partition(graph);
}

}  // namespace loupe::ir
