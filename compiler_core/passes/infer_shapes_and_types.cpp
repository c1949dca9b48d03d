#include "passes/infer_shapes_and_types.h"

#include <algorithm>

#include "ir/graph_printer.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::passes {

namespace {

using ir::DType;
using ir::OpType;

InferredOutput problem(std::string text) {
  InferredOutput out;
  out.problem = std::move(text);
  return out;
}

InferredOutput shaped(ir::Shape shape, std::vector<DType> dtypes) {
  InferredOutput out;
  out.shape = std::move(shape);
  out.dtypes = std::move(dtypes);
  return out;
}

std::string tensorText(const ir::Tensor& tensor) {
  return "tensor " + std::to_string(tensor.index) + " '" + tensor.name + "' " +
         ir::tensorTypeToString(tensor);
}

// A constant integer operand, or nullopt when absent or not constant.
std::optional<std::vector<std::int64_t>> constantOperand(const ir::Graph& graph,
                                                         const ir::Operator& op, std::size_t slot) {
  const ir::Tensor* tensor = graph.input(op, slot);
  if (tensor == nullptr) return std::nullopt;
  return reference::constantIntegers(*tensor);
}

// CONV_2D, DEPTHWISE_CONV_2D and the pools: [batch, windows down, windows
// across, channels], through the same geometry the reference kernels use.
InferredOutput windowedOutput(const ir::Tensor& input, const reference::WindowGeometry& g,
                              std::int32_t channels) {
  if (g.outHeight <= 0 || g.outWidth <= 0) {
    return problem("a window that fits in " + tensorText(input));
  }
  return shaped({input.shape[0], g.outHeight, g.outWidth, channels}, {input.dtype});
}

InferredOutput inferConv(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* filter = graph.input(op, 1);
  if (input == nullptr || filter == nullptr) return problem("an input and a filter");
  if (input->shape.size() != 4 || filter->shape.size() != 4) {
    return problem("4-D input and filter, found " + tensorText(*input) + " and " +
                   tensorText(*filter));
  }
  if (filter->shape[3] <= 0 || input->shape[3] % filter->shape[3] != 0) {
    return problem("the filter depth " + std::to_string(filter->shape[3]) +
                   " divides the input depth of " + tensorText(*input));
  }
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const auto g = reference::windowGeometry(attrs, input->shape[1], input->shape[2],
                                           filter->shape[1], filter->shape[2]);
  return windowedOutput(*input, g, filter->shape[0]);
}

InferredOutput inferDepthwise(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* filter = graph.input(op, 1);
  if (input == nullptr || filter == nullptr) return problem("an input and a filter");
  if (input->shape.size() != 4 || filter->shape.size() != 4) {
    return problem("4-D input and filter, found " + tensorText(*input) + " and " +
                   tensorText(*filter));
  }
  const auto& attrs = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
  if (input->shape[3] * attrs.depthMultiplier != filter->shape[3]) {
    return problem("filter channels = input depth x depth multiplier " +
                   std::to_string(attrs.depthMultiplier) + ", found " + tensorText(*input) +
                   " and " + tensorText(*filter));
  }
  const auto g = reference::windowGeometry(attrs, input->shape[1], input->shape[2],
                                           filter->shape[1], filter->shape[2]);
  return windowedOutput(*input, g, filter->shape[3]);
}

InferredOutput inferPool(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return problem("an input");
  if (input->shape.size() != 4) return problem("a 4-D input, found " + tensorText(*input));
  const auto& attrs = std::get<ir::Pool2DAttrs>(op.attributes);
  return windowedOutput(*input, reference::windowGeometry(attrs, input->shape[1], input->shape[2]),
                        input->shape[3]);
}

// TFLite's FULLY_CONNECTED: the input flattened to rows of the weights'
// depth; keep_num_dims keeps the input's leading dimensions.
InferredOutput inferFullyConnected(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* weights = graph.input(op, 1);
  if (input == nullptr || weights == nullptr) return problem("an input and weights");
  if (weights->shape.size() != 2) return problem("2-D weights, found " + tensorText(*weights));
  const std::int32_t units = weights->shape[0];
  const std::int32_t depth = weights->shape[1];
  if (depth <= 0 || input->elementCount() % depth != 0) {
    return problem("an input of whole rows of the weights' depth " + std::to_string(depth) +
                   ", found " + tensorText(*input));
  }
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  if (attrs.keepNumDims && !input->shape.empty()) {
    ir::Shape shape = input->shape;
    shape.back() = units;
    return shaped(shape, {input->dtype});
  }
  return shaped({static_cast<std::int32_t>(input->elementCount() / depth), units}, {input->dtype});
}

InferredOutput inferBroadcast(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* a = graph.input(op, 0);
  const ir::Tensor* b = graph.input(op, 1);
  if (a == nullptr || b == nullptr) return problem("two inputs");
  const auto shape = reference::broadcastShape(a->shape, b->shape);
  if (!shape) return problem(tensorText(*a) + " and " + tensorText(*b) + " to broadcast");
  return shaped(*shape, {a->dtype});
}

// The element count the input holds, in the new shape (one -1 resolved).
std::optional<InferredOutput> inferReshape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return problem("an input");
  std::vector<std::int64_t> requested;
  if (const ir::Tensor* shapeOperand = graph.input(op, 1)) {
    const auto values = reference::constantIntegers(*shapeOperand);
    if (!values || shapeOperand->shape.size() != 1) return std::nullopt;  // dynamic: no rule
    requested = *values;
  } else if (const auto* attrs = std::get_if<ir::ReshapeAttrs>(&op.attributes);
             attrs != nullptr && !attrs->newShape.empty()) {
    requested.assign(attrs->newShape.begin(), attrs->newShape.end());
  } else {
    return std::nullopt;
  }
  ir::Shape shape;
  std::int64_t known = 1;
  int unknownAxis = -1;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (requested[i] == -1 && unknownAxis < 0) {
      unknownAxis = static_cast<int>(i);
      shape.push_back(1);
      continue;
    }
    if (requested[i] < 0) return problem("a new shape with at most one -1");
    known *= requested[i];
    shape.push_back(static_cast<std::int32_t>(requested[i]));
  }
  if (unknownAxis >= 0) {
    if (known == 0 || input->elementCount() % known != 0) {
      return problem("a new shape that divides the " + std::to_string(input->elementCount()) +
                     " elements of " + tensorText(*input));
    }
    shape[static_cast<std::size_t>(unknownAxis)] =
        static_cast<std::int32_t>(input->elementCount() / known);
  }
  if (ir::elementCount(shape) != input->elementCount()) {
    return problem("new shape " + ir::shapeToString(shape) + " to hold the " +
                   std::to_string(input->elementCount()) + " elements of " + tensorText(*input));
  }
  return shaped(shape, {input->dtype});
}

InferredOutput inferSqueeze(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return problem("an input");
  const int rank = static_cast<int>(input->shape.size());
  std::vector<bool> squeezed(static_cast<std::size_t>(rank), false);
  const auto* attrs = std::get_if<ir::SqueezeAttrs>(&op.attributes);
  if (attrs == nullptr || attrs->squeezeDims.empty()) {
    for (int d = 0; d < rank; ++d) squeezed[d] = input->shape[d] == 1;
  } else {
    for (std::int32_t dim : attrs->squeezeDims) {
      const int axis = dim < 0 ? dim + rank : dim;
      if (axis < 0 || axis >= rank || input->shape[axis] != 1) {
        return problem("squeeze dimension " + std::to_string(dim) + " of size 1 in " +
                       tensorText(*input));
      }
      squeezed[axis] = true;
    }
  }
  ir::Shape shape;
  for (int d = 0; d < rank; ++d) {
    if (!squeezed[d]) shape.push_back(input->shape[d]);
  }
  return shaped(shape, {input->dtype});
}

std::optional<InferredOutput> inferExpandDims(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto axisValues = constantOperand(graph, op, 1);
  if (input == nullptr || !axisValues || axisValues->size() != 1) return std::nullopt;
  const int rank = static_cast<int>(input->shape.size());
  auto axis = static_cast<int>(axisValues->front());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) return problem("an axis within " + tensorText(*input));
  ir::Shape shape = input->shape;
  shape.insert(shape.begin() + axis, 1);
  return shaped(shape, {input->dtype});
}

std::optional<InferredOutput> inferPad(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto pads = constantOperand(graph, op, 1);
  if (input == nullptr || !pads) return std::nullopt;
  if (pads->size() != input->shape.size() * 2) {
    return problem("paddings of shape [" + std::to_string(input->shape.size()) + ",2] for " +
                   tensorText(*input));
  }
  ir::Shape shape = input->shape;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto before = (*pads)[2 * d], after = (*pads)[2 * d + 1];
    if (before < 0 || after < 0) return problem("non-negative paddings");
    shape[d] = static_cast<std::int32_t>(shape[d] + before + after);
  }
  return shaped(shape, {input->dtype});
}

InferredOutput inferConcatenation(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* first = graph.input(op, 0);
  if (first == nullptr) return problem("at least one input");
  const auto rank = static_cast<int>(first->shape.size());
  const auto& attrs = std::get<ir::ConcatenationAttrs>(op.attributes);
  const int axis = attrs.axis < 0 ? attrs.axis + rank : attrs.axis;
  if (axis < 0 || axis >= rank) {
    return problem("axis " + std::to_string(attrs.axis) + " within " + tensorText(*first));
  }
  ir::Shape shape = first->shape;
  shape[axis] = 0;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const ir::Tensor* input = graph.input(op, slot);
    if (input == nullptr) return problem("no absent inputs");
    bool matches = input->shape.size() == first->shape.size();
    for (int d = 0; matches && d < rank; ++d) {
      matches = d == axis || input->shape[d] == first->shape[d];
    }
    if (!matches) {
      return problem(tensorText(*input) + " to match " + tensorText(*first) + " off axis " +
                     std::to_string(axis));
    }
    shape[axis] += input->shape[axis];
  }
  return shaped(shape, {first->dtype});
}

std::optional<InferredOutput> inferMean(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto axes = constantOperand(graph, op, 1);
  if (input == nullptr || !axes) return std::nullopt;
  const int rank = static_cast<int>(input->shape.size());
  std::vector<bool> reduced(static_cast<std::size_t>(rank), false);
  for (std::int64_t value : *axes) {
    const auto axis = static_cast<int>(value < 0 ? value + rank : value);
    if (axis < 0 || axis >= rank) {
      return problem("axis " + std::to_string(value) + " within " + tensorText(*input));
    }
    reduced[axis] = true;
  }
  const auto* attrs = std::get_if<ir::ReducerAttrs>(&op.attributes);
  const bool keepDims = attrs != nullptr && attrs->keepDims;
  ir::Shape shape;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) {
      shape.push_back(input->shape[d]);
    } else if (keepDims) {
      shape.push_back(1);
    }
  }
  return shaped(shape, {input->dtype});
}

std::optional<InferredOutput> inferTranspose(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const auto perm = constantOperand(graph, op, 1);
  if (input == nullptr || !perm) return std::nullopt;
  const auto rank = static_cast<std::int64_t>(input->shape.size());
  if (static_cast<std::int64_t>(perm->size()) != rank) {
    return problem("a permutation of the " + std::to_string(rank) + " axes of " +
                   tensorText(*input));
  }
  ir::Shape shape;
  for (std::int64_t axis : *perm) {
    if (axis < 0 || axis >= rank)
      return problem("a permutation within rank " + std::to_string(rank));
    shape.push_back(input->shape[static_cast<std::size_t>(axis)]);
  }
  return shaped(shape, {input->dtype});
}

// TRANSPOSE_CONV states its output shape in operand 0.
std::optional<InferredOutput> inferTransposeConv(const ir::Graph& graph, const ir::Operator& op) {
  const auto shapeValues = constantOperand(graph, op, 0);
  const ir::Tensor* input = graph.input(op, 2);
  if (!shapeValues || input == nullptr) return std::nullopt;
  ir::Shape shape(shapeValues->begin(), shapeValues->end());
  return shaped(shape, {input->dtype});
}

InferredOutput sameAsInput(const ir::Graph& graph, const ir::Operator& op,
                           std::vector<DType> dtypes) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return problem("an input");
  return shaped(input->shape, std::move(dtypes));
}

}  // namespace

std::optional<InferredOutput> inferOutput(const ir::Graph& graph, const ir::Operator& op) {
  if (op.outputs.empty()) return std::nullopt;
  const ir::Tensor* input = graph.input(op, 0);
  const DType inputType = input ? input->dtype : DType::Float32;
  switch (op.type) {
    case OpType::Conv2D:
      return inferConv(graph, op);
    case OpType::DepthwiseConv2D:
      return inferDepthwise(graph, op);
    case OpType::AveragePool2D:
    case OpType::MaxPool2D:
      return inferPool(graph, op);
    case OpType::FullyConnected:
      return inferFullyConnected(graph, op);
    case OpType::Add:
    case OpType::Sub:
    case OpType::Mul:
      return inferBroadcast(graph, op);
    case OpType::Reshape:
      return inferReshape(graph, op);
    case OpType::Squeeze:
      return inferSqueeze(graph, op);
    case OpType::ExpandDims:
      return inferExpandDims(graph, op);
    case OpType::Pad:
    case OpType::PadV2:
      return inferPad(graph, op);
    case OpType::Concatenation:
      return inferConcatenation(graph, op);
    case OpType::Mean:
      return inferMean(graph, op);
    case OpType::Transpose:
      return inferTranspose(graph, op);
    case OpType::TransposeConv:
      return inferTransposeConv(graph, op);
    case OpType::Softmax:
      // int8 SOFTMAX may write int16 probabilities.
      return sameAsInput(graph, op,
                         inputType == DType::Int8 ? std::vector{DType::Int8, DType::Int16}
                                                  : std::vector{inputType});
    case OpType::Logistic:
    case OpType::Tanh:
    case OpType::Relu:
    case OpType::Relu6:
    case OpType::LeakyRelu:
    case OpType::HardSwish:
      return sameAsInput(graph, op, {inputType});
    case OpType::Quantize:
      return sameAsInput(graph, op, {});
    case OpType::Dequantize:
      return sameAsInput(graph, op, {DType::Float32});
    default:
      return std::nullopt;
  }
}

ir::Graph inferShapesAndTypes(ir::Graph graph, PassContext& context) {
  std::vector<PassDiagnostic> diagnostics;
  int checked = 0;
  for (const auto& op : graph.operators) {
    const auto inferred = inferOutput(graph, op);
    if (!inferred) continue;
    ++checked;
    const int outputIndex = op.outputs[0];
    const ir::Tensor& output = graph.tensor(outputIndex);
    if (!inferred->problem.empty()) {
      diagnostics.push_back(diagnosticAt(graph, op, outputIndex, inferred->problem, ""));
      continue;
    }
    const bool dtypeMatches =
        inferred->dtypes.empty() || std::find(inferred->dtypes.begin(), inferred->dtypes.end(),
                                              output.dtype) != inferred->dtypes.end();
    if (inferred->shape != output.shape || !dtypeMatches) {
      std::string expected;
      for (std::size_t i = 0; i < inferred->dtypes.size(); ++i) {
        expected += (i ? " or " : "") + std::string(ir::dtypeName(inferred->dtypes[i]));
      }
      if (expected.empty()) expected = "any type";
      expected += ir::shapeToString(inferred->shape);
      diagnostics.push_back(
          diagnosticAt(graph, op, outputIndex, expected,
                       std::string(ir::dtypeName(output.dtype)) + ir::shapeToString(output.shape)));
    }
  }
  if (!diagnostics.empty()) throw PassError(std::string(kInferShapesAndTypes), diagnostics);
  context.remark(std::to_string(checked) + " of " + std::to_string(graph.operators.size()) +
                 " operators checked against their shape and type rules");
  return graph;
}

}  // namespace loupe::passes
