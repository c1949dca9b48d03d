// EXPAND_DIMS: inserts a size-1 dimension at the position given by the
// constant axis operand; the bytes are copied unchanged. As in TFLite Micro
// the axis must be a constant int32 scalar (or one-element vector) and the
// output shape must be the input's with the 1 inserted.
#include <algorithm>

#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

std::optional<std::string> checkExpandDims(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "EXPAND_DIMS", 2)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& axisTensor = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != output.dtype) {
    return "input dtype " + describeDtype(input.dtype) + " differs from output dtype " +
           describeDtype(output.dtype);
  }
  if (axisTensor.dtype != ir::DType::Int32) {
    return "axis operand '" + axisTensor.name + "' has dtype " + describeDtype(axisTensor.dtype) +
           " (expected int32)";
  }
  if (axisTensor.shape.size() > 1 || axisTensor.elementCount() != 1) {
    return "axis operand '" + axisTensor.name + "' has shape " +
           ir::shapeToString(axisTensor.shape) + " (expected a single value)";
  }
  const auto axisValues = constantIntegers(axisTensor);
  if (!axisValues) {
    return "axis operand '" + axisTensor.name +
           "' is not a constant (dynamic axes are not "
           "supported)";
  }
  const int rank = static_cast<int>(input.shape.size());
  int axis = static_cast<int>(axisValues->front());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) {
    return "axis " + std::to_string(axisValues->front()) + " is out of range for input shape " +
           ir::shapeToString(input.shape);
  }
  ir::Shape expected = input.shape;
  expected.insert(expected.begin() + axis, 1);
  if (expected != output.shape) {
    return "expanding input shape " + ir::shapeToString(input.shape) + " at axis " +
           std::to_string(axis) + " gives " + ir::shapeToString(expected) + " but output '" +
           output.name + "' has shape " + ir::shapeToString(output.shape);
  }
  return std::nullopt;
}

void evalExpandDims(const ir::Graph&, const ir::Operator& op, TensorStore& store) {
  auto in = store.bytes(op.inputs[0]);
  std::copy(in.begin(), in.end(), store.mutableBytes(op.outputs[0]).begin());
}

}  // namespace

extern const Kernel kExpandDimsKernel{ir::OpType::ExpandDims, checkExpandDims, evalExpandDims};

}  // namespace loupe::reference
