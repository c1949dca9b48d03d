#include "frontend/shape_consistency.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "frontend/tflite_importer.h"
#include "ir/graph_printer.h"
#include "ops/operator_registry.h"

namespace loupe::frontend {

namespace {

using ir::OpType;

std::string label(const ir::Tensor& tensor) {
  return "tensor " + std::to_string(tensor.index) + " '" + tensor.name + "' " +
         ir::shapeToString(tensor.shape);
}

class OperatorChecker {
 public:
  OperatorChecker(const ir::Graph& graph, const ir::Operator& op) : graph_(graph), op_(op) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw ImportError("operator " + std::to_string(op_.index) + " (" + op_.typeName() +
                      "): " + what);
  }

  const ir::Tensor& in(std::size_t slot, const char* role) const {
    const ir::Tensor* tensor = graph_.input(op_, slot);
    if (tensor == nullptr) fail(std::string("the required ") + role + " input is missing");
    return *tensor;
  }
  const ir::Tensor* optionalIn(std::size_t slot) const { return graph_.input(op_, slot); }
  const ir::Tensor& out() const { return graph_.output(op_, 0); }

  void requireRank(const ir::Tensor& tensor, std::size_t rank, const char* role) const {
    if (tensor.shape.size() != rank) {
      fail(std::string(role) + " " + label(tensor) + " has rank " +
           std::to_string(tensor.shape.size()) + "; expected " + std::to_string(rank));
    }
  }

  void requireDim(const ir::Tensor& tensor, std::size_t axis, std::int64_t expected,
                  const std::string& why) const {
    if (tensor.shape[axis] != expected) {
      fail(label(tensor) + " has " + std::to_string(tensor.shape[axis]) + " in dimension " +
           std::to_string(axis) + "; expected " + std::to_string(expected) + " (" + why + ")");
    }
  }

  void requireSameElements(const ir::Tensor& a, const ir::Tensor& b) const {
    if (a.elementCount() != b.elementCount()) {
      fail(label(a) + " has " + std::to_string(a.elementCount()) + " elements but " + label(b) +
           " has " + std::to_string(b.elementCount()));
    }
  }

  void requireSameShape(const ir::Tensor& a, const ir::Tensor& b) const {
    if (a.shape != b.shape) fail(label(a) + " and " + label(b) + " must have the same shape");
  }

  void checkBias(std::int64_t channels) const {
    if (const ir::Tensor* bias = optionalIn(2)) {
      if (bias->elementCount() != channels) {
        fail("bias " + label(*bias) + " has " + std::to_string(bias->elementCount()) +
             " elements; expected one per output channel (" + std::to_string(channels) + ")");
      }
    }
  }

  // Output extent of a windowed operator as TFLite computes it; with explicit
  // padding (a legalised graph), every window that fits in the padded input.
  static std::int64_t windowedExtent(ir::Padding padding, std::int64_t in, int filter, int stride,
                                     int dilation, const std::optional<std::pair<int, int>>& pads) {
    const std::int64_t effective = static_cast<std::int64_t>(filter - 1) * dilation + 1;
    if (pads) {
      const std::int64_t padded = in + pads->first + pads->second;
      return stride <= 0 || padded < effective ? 0 : (padded - effective) / stride + 1;
    }
    if (padding == ir::Padding::Same) return (in + stride - 1) / stride;
    return (in - effective + stride) / stride;
  }

  void checkSpatial(const ir::Tensor& input, const ir::Tensor& output, ir::Padding padding,
                    const std::optional<ir::ExplicitPadding>& explicitPadding, int filterH,
                    int filterW, int strideH, int strideW, int dilationH, int dilationW) const {
    std::optional<std::pair<int, int>> padsH, padsW;
    if (explicitPadding) {
      padsH = std::pair{explicitPadding->top, explicitPadding->bottom};
      padsW = std::pair{explicitPadding->left, explicitPadding->right};
    }
    const auto h = windowedExtent(padding, input.shape[1], filterH, strideH, dilationH, padsH);
    const auto w = windowedExtent(padding, input.shape[2], filterW, strideW, dilationW, padsW);
    std::string why = (explicitPadding ? ir::explicitPaddingToString(*explicitPadding)
                                       : std::string(ir::paddingName(padding))) +
                      " padding, window " + std::to_string(filterH) + "x" +
                      std::to_string(filterW) + ", stride " + std::to_string(strideH) + "x" +
                      std::to_string(strideW);
    requireDim(output, 1, h, "output height for " + why);
    requireDim(output, 2, w, "output width for " + why);
    requireDim(output, 0, input.shape[0], "batch of the input");
  }

  void check() const {
    switch (op_.type) {
      case OpType::Conv2D: {
        const auto& a = std::get<ir::Conv2DAttrs>(op_.attributes);
        const auto& input = in(0, "input");
        const auto& filter = in(1, "filter");
        requireRank(input, 4, "input");
        requireRank(filter, 4, "filter");
        requireRank(out(), 4, "output");
        if (filter.shape[3] == 0 || input.shape[3] % filter.shape[3] != 0) {
          fail("filter " + label(filter) + " has " + std::to_string(filter.shape[3]) +
               " input channels, which do not divide the " + std::to_string(input.shape[3]) +
               " channels of input " + label(input));
        }
        requireDim(out(), 3, filter.shape[0], "output channels of the filter");
        checkSpatial(input, out(), a.padding, a.explicitPadding, filter.shape[1], filter.shape[2],
                     a.strideH, a.strideW, a.dilationH, a.dilationW);
        checkBias(filter.shape[0]);
        return;
      }
      case OpType::DepthwiseConv2D: {
        const auto& a = std::get<ir::DepthwiseConv2DAttrs>(op_.attributes);
        const auto& input = in(0, "input");
        const auto& filter = in(1, "filter");
        requireRank(input, 4, "input");
        requireRank(filter, 4, "filter");
        requireRank(out(), 4, "output");
        requireDim(out(), 3, filter.shape[3], "output channels of the filter");
        if (input.shape[3] == 0 || filter.shape[3] % input.shape[3] != 0) {
          fail("filter " + label(filter) + " has " + std::to_string(filter.shape[3]) +
               " channels, not a multiple of the " + std::to_string(input.shape[3]) +
               " channels of input " + label(input));
        }
        checkSpatial(input, out(), a.padding, a.explicitPadding, filter.shape[1], filter.shape[2],
                     a.strideH, a.strideW, a.dilationH, a.dilationW);
        checkBias(filter.shape[3]);
        return;
      }
      case OpType::AveragePool2D:
      case OpType::MaxPool2D: {
        const auto& a = std::get<ir::Pool2DAttrs>(op_.attributes);
        const auto& input = in(0, "input");
        requireRank(input, 4, "input");
        requireRank(out(), 4, "output");
        requireDim(out(), 3, input.shape[3], "channels of the input");
        checkSpatial(input, out(), a.padding, a.explicitPadding, a.filterH, a.filterW, a.strideH,
                     a.strideW, 1, 1);
        return;
      }
      case OpType::FullyConnected: {
        const auto& input = in(0, "input");
        const auto& weights = in(1, "weights");
        requireRank(weights, 2, "weights");
        const std::int64_t depth = weights.shape[1];
        if (depth == 0 || input.elementCount() % depth != 0) {
          fail("input " + label(input) + " has " + std::to_string(input.elementCount()) +
               " elements, not a multiple of the weights' depth " + std::to_string(depth) +
               " (weights " + label(weights) + ")");
        }
        if (out().shape.empty() || out().shape.back() != weights.shape[0]) {
          fail("output " + label(out()) + " must end in the weights' " +
               std::to_string(weights.shape[0]) + " units (weights " + label(weights) + ")");
        }
        if (out().elementCount() != input.elementCount() / depth * weights.shape[0]) {
          fail("output " + label(out()) + " does not hold one row of " +
               std::to_string(weights.shape[0]) + " units per input row of " +
               std::to_string(depth));
        }
        checkBias(weights.shape[0]);
        return;
      }
      case OpType::Reshape:
      case OpType::Squeeze:
      case OpType::ExpandDims:
        requireSameElements(in(0, "input"), out());
        return;
      case OpType::Softmax:
      case OpType::Logistic:
      case OpType::Tanh:
      case OpType::Relu:
      case OpType::Relu6:
      case OpType::LeakyRelu:
      case OpType::HardSwish:
      case OpType::Quantize:
      case OpType::Dequantize:
        requireSameShape(in(0, "input"), out());
        return;
      case OpType::Add:
      case OpType::Sub:
      case OpType::Mul:
        checkBroadcast(in(0, "first"), in(1, "second"));
        return;
      case OpType::Pad:
      case OpType::PadV2:
        checkPad(in(0, "input"), in(1, "paddings"));
        return;
      case OpType::Concatenation:
        checkConcatenation();
        return;
      default:
        checkAgainstShapeRule();
        return;
    }
  }

 private:
  // The operator's own shape rule (ops/), which the infer_shapes_and_types
  // pass applies too; operators without one are left to their kernels'
  // checks.
  void checkAgainstShapeRule() const {
    const ops::ShapeRule rule = ops::definitionOf(op_.type).shape;
    if (rule == nullptr || op_.outputs.empty()) return;
    const auto inferred = rule(graph_, op_);
    if (!inferred) return;
    if (!inferred->problem.empty()) fail("expected " + inferred->problem);
    for (std::size_t slot = 0; slot < op_.outputs.size(); ++slot) {
      if (slot > inferred->moreShapes.size()) break;
      const ir::Shape& shape = slot == 0 ? inferred->shape : inferred->moreShapes[slot - 1];
      const ir::Tensor& output = graph_.output(op_, slot);
      if (output.shape != shape) {
        fail("output " + label(output) + " should have shape " + ir::shapeToString(shape));
      }
      const auto& dtypes = inferred->dtypes;
      if (!dtypes.empty() &&
          std::find(dtypes.begin(), dtypes.end(), output.dtype) == dtypes.end()) {
        fail("output " + label(output) + " has element type " +
             std::string(ir::dtypeName(output.dtype)) + "; expected " +
             std::string(ir::dtypeName(dtypes.front())));
      }
    }
  }

  void checkBroadcast(const ir::Tensor& a, const ir::Tensor& b) const {
    const auto& output = out();
    const std::size_t rank = std::max(a.shape.size(), b.shape.size());
    if (output.shape.size() != rank) {
      fail("output " + label(output) + " must have rank " + std::to_string(rank) +
           " to hold the broadcast of " + label(a) + " and " + label(b));
    }
    for (std::size_t i = 0; i < rank; ++i) {
      auto dim = [&](const ir::Shape& s) -> std::int64_t {
        const std::size_t offset = rank - s.size();
        return i < offset ? 1 : s[i - offset];
      };
      const auto da = dim(a.shape), db = dim(b.shape);
      if (da != db && da != 1 && db != 1) {
        fail(label(a) + " and " + label(b) + " cannot be broadcast together (dimension " +
             std::to_string(i) + ": " + std::to_string(da) + " vs " + std::to_string(db) + ")");
      }
      if (output.shape[i] != std::max(da, db)) {
        fail("output " + label(output) + " does not match the broadcast of " + label(a) + " and " +
             label(b));
      }
    }
  }

  void checkPad(const ir::Tensor& input, const ir::Tensor& paddings) const {
    const auto rank = input.shape.size();
    if (paddings.shape != ir::Shape{static_cast<std::int32_t>(rank), 2}) {
      fail("paddings " + label(paddings) + " must have shape [" + std::to_string(rank) +
           ",2] for input " + label(input));
    }
    requireRank(out(), rank, "output");
    if (!paddings.isConstant) return;
    if (paddings.dtype != ir::DType::Int32 && paddings.dtype != ir::DType::Int64) {
      fail("paddings " + label(paddings) + " must be int32 or int64");
    }
    for (std::size_t axis = 0; axis < rank; ++axis) {
      std::int64_t before, after;
      if (paddings.dtype == ir::DType::Int32) {
        const auto* p = reinterpret_cast<const std::int32_t*>(paddings.data.data());
        before = p[2 * axis], after = p[2 * axis + 1];
      } else {
        const auto* p = reinterpret_cast<const std::int64_t*>(paddings.data.data());
        before = p[2 * axis], after = p[2 * axis + 1];
      }
      if (before < 0 || after < 0) fail("paddings " + label(paddings) + " hold a negative amount");
      requireDim(out(), axis, input.shape[axis] + before + after,
                 "input plus paddings " + std::to_string(before) + " and " + std::to_string(after));
    }
  }

  void checkConcatenation() const {
    const auto& a = std::get<ir::ConcatenationAttrs>(op_.attributes);
    const auto& output = out();
    const auto rank = static_cast<int>(output.shape.size());
    const int axis = a.axis < 0 ? a.axis + rank : a.axis;
    if (axis < 0 || axis >= rank) {
      fail("axis " + std::to_string(a.axis) + " is outside the output's rank " +
           std::to_string(rank));
    }
    std::int64_t total = 0;
    for (std::size_t slot = 0; slot < op_.inputs.size(); ++slot) {
      const auto& input = in(slot, "concatenated");
      requireRank(input, static_cast<std::size_t>(rank), "input");
      for (int d = 0; d < rank; ++d) {
        if (d != axis) requireDim(input, static_cast<std::size_t>(d), output.shape[d], "output");
      }
      total += input.shape[axis];
    }
    requireDim(output, static_cast<std::size_t>(axis), total, "sum of the inputs along the axis");
  }

  const ir::Graph& graph_;
  const ir::Operator& op_;
};

}  // namespace

void checkShapeConsistency(const ir::Graph& graph) {
  for (const auto& op : graph.operators) {
    if (op.type != OpType::Opaque) OperatorChecker(graph, op).check();
  }
}

void checkDataflow(const ir::Graph& graph) {
  std::vector<bool> hasValue(graph.tensors.size(), false);
  for (const auto& tensor : graph.tensors) {
    if (tensor.isConstant || tensor.isVariable) hasValue[tensor.index] = true;
  }
  for (int input : graph.inputs) hasValue[input] = true;
  for (const auto& op : graph.operators) {
    for (int index : op.inputs) {
      // An opaque operator (an NPU command stream, say) may take scratch
      // areas that nothing writes before it; only it knows their meaning.
      if (index == ir::kNoTensor || hasValue[index] || op.type == OpType::Opaque) continue;
      const auto& tensor = graph.tensor(index);
      if (tensor.elementCount() == 0) continue;  // empty tensors carry no data to produce
      throw ImportError("operator " + std::to_string(op.index) + " (" + op.typeName() + ") reads " +
                        label(tensor) +
                        ", which is neither a model input, a constant nor written by an earlier "
                        "operator");
    }
    for (int index : op.outputs) hasValue[index] = true;
  }
  for (int output : graph.outputs) {
    if (!hasValue[output]) {
      throw ImportError("model output " + label(graph.tensor(output)) +
                        " is never written by any operator");
    }
  }
}

}  // namespace loupe::frontend
