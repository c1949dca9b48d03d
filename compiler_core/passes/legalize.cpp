#include "passes/legalize.h"

#include <cstring>

#include "passes/graph_rewrite.h"
#include "reference/quantized_params.h"

namespace loupe::passes {

namespace {

// SAME/VALID -> explicit pads equal to the ones the kernels derive, kept only
// when the explicit form gives the same output size (it always does for a
// window that fits; a degenerate window keeps its SAME/VALID form).
template <typename Attrs, typename Geometry>
bool spellOutPadding(Attrs& attrs, Geometry geometryOf) {
  if (attrs.explicitPadding) return false;
  const reference::WindowGeometry implicit = geometryOf(attrs);
  Attrs candidate = attrs;
  candidate.explicitPadding = reference::explicitPaddingOf(implicit);
  const reference::WindowGeometry spelled = geometryOf(candidate);
  if (spelled.outHeight != implicit.outHeight || spelled.outWidth != implicit.outWidth ||
      spelled.padHeight != implicit.padHeight || spelled.padWidth != implicit.padWidth) {
    return false;
  }
  attrs.explicitPadding = candidate.explicitPadding;
  return true;
}

bool legalizeWindow(const ir::Graph& graph, ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr || input->shape.size() != 4) return false;
  const int inH = input->shape[1], inW = input->shape[2];
  if (auto* pool = std::get_if<ir::Pool2DAttrs>(&op.attributes)) {
    return spellOutPadding(
        *pool, [&](const ir::Pool2DAttrs& a) { return reference::windowGeometry(a, inH, inW); });
  }
  const ir::Tensor* filter = graph.input(op, 1);
  if (filter == nullptr || filter->shape.size() != 4) return false;
  const int fH = filter->shape[1], fW = filter->shape[2];
  if (auto* conv = std::get_if<ir::Conv2DAttrs>(&op.attributes)) {
    return spellOutPadding(*conv, [&](const ir::Conv2DAttrs& a) {
      return reference::windowGeometry(a, inH, inW, fH, fW);
    });
  }
  if (auto* depthwise = std::get_if<ir::DepthwiseConv2DAttrs>(&op.attributes)) {
    return spellOutPadding(*depthwise, [&](const ir::DepthwiseConv2DAttrs& a) {
      return reference::windowGeometry(a, inH, inW, fH, fW);
    });
  }
  return false;
}

// Whether PADV2's value operand holds exactly what PAD pads with (see
// reference::padValueOf): the output zero point for int8, zero (+0.0 for
// float32: -0.0 has other bits) for the other types.
bool padsWithPadDefault(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* value = graph.input(op, 2);
  if (input == nullptr || value == nullptr || op.outputs.size() != 1) return false;
  if (!value->isConstant || value->elementCount() != 1 || value->dtype != input->dtype) {
    return false;
  }
  const ir::Tensor& output = graph.output(op, 0);
  const auto& bytes = value->data;
  switch (input->dtype) {
    case ir::DType::Int8:
      return output.quantization.isQuantized() && bytes.size() == 1 &&
             static_cast<std::int8_t>(bytes[0]) == output.quantization.zeroPoint();
    case ir::DType::Int16:
    case ir::DType::Int32:
    case ir::DType::Float32: {
      const std::size_t size = ir::dtypeSize(input->dtype);
      if (bytes.size() != size) return false;
      for (std::uint8_t byte : bytes) {
        if (byte != 0) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

ir::Graph legalize(ir::Graph graph, PassContext& context) {
  int windows = 0;
  for (auto& op : graph.operators) {
    switch (op.type) {
      case ir::OpType::Conv2D:
      case ir::OpType::DepthwiseConv2D:
      case ir::OpType::AveragePool2D:
      case ir::OpType::MaxPool2D:
        if (legalizeWindow(graph, op)) ++windows;
        break;
      case ir::OpType::PadV2:
        if (padsWithPadDefault(graph, op)) {
          const std::string before = operatorLabel(op);
          op.type = ir::OpType::Pad;
          op.inputs.resize(2);
          context.remark(before + " pads with PAD's own value: now PAD");
        }
        break;
      default:
        break;
    }
  }
  if (windows > 0) {
    context.remark(std::to_string(windows) +
                   " convolution/pooling operators now carry explicit padding");
  }
  return graph;
}

}  // namespace loupe::passes
