// CONCATENATION: joins its inputs along one axis. TFLite Micro copies
// elements without requantising, so quantised inputs must already share the
// output's scale and zero point (the TFLite converter arranges this); a model
// where they differ is refused rather than silently reinterpreted.
#include <algorithm>

#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

bool isConcatenationDtype(ir::DType type) {
  switch (type) {
    case ir::DType::Float32:
    case ir::DType::Int8:
    case ir::DType::Int16:
    case ir::DType::Int32:
    case ir::DType::Int64:
    case ir::DType::Bool:
      return true;
    default:
      return false;
  }
}

// TFLite's axis convention: negative counts from the end of the output shape.
int positiveConcatenationAxis(int axis, const ir::Tensor& output) {
  return axis < 0 ? axis + static_cast<int>(output.shape.size()) : axis;
}

std::optional<std::string> checkConcatenation(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "CONCATENATION", 1)) return problem;
  const auto* attrs = std::get_if<ir::ConcatenationAttrs>(&op.attributes);
  if (attrs == nullptr) return "CONCATENATION has no concatenation attributes";
  if (attrs->activation != ir::Activation::None) {
    return "fused activation " + std::string(ir::activationName(attrs->activation)) +
           " is not supported (TFLite Micro requires NONE)";
  }
  const ir::Tensor& output = graph.output(op, 0);
  if (!isConcatenationDtype(output.dtype)) {
    return "output dtype " + describeDtype(output.dtype) +
           " is not supported (expected float32, int8, int16, int32, int64 or bool)";
  }
  const int rank = static_cast<int>(output.shape.size());
  const int axis = positiveConcatenationAxis(attrs->axis, output);
  if (axis < 0 || axis >= rank) {
    return "axis " + std::to_string(attrs->axis) + " is out of range for output rank " +
           std::to_string(rank);
  }
  const bool quantized = output.quantization.isQuantized() &&
                         (output.dtype == ir::DType::Int8 || output.dtype == ir::DType::Int16);
  std::int64_t axisTotal = 0;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const ir::Tensor* input = graph.input(op, slot);
    if (input == nullptr) return "input " + std::to_string(slot) + " is missing";
    const auto describeInput = [&] {
      return describeTensor("input " + std::to_string(slot), *input);
    };
    if (input->dtype != output.dtype) {
      return describeInput() + " does not have the output's dtype " + describeDtype(output.dtype);
    }
    if (static_cast<int>(input->shape.size()) != rank) {
      return describeInput() + " has a different rank than the output's " +
             ir::shapeToString(output.shape);
    }
    for (int d = 0; d < rank; ++d) {
      if (d != axis && input->shape[d] != output.shape[d]) {
        return describeInput() + " differs from the output's " + ir::shapeToString(output.shape) +
               " outside axis " + std::to_string(axis);
      }
    }
    axisTotal += input->shape[axis];
    if (quantized && (input->quantization.scale() != output.quantization.scale() ||
                      input->quantization.zeroPoint() != output.quantization.zeroPoint())) {
      return describeInput() + " is quantised with scale " +
             std::to_string(input->quantization.scale()) + ", zero point " +
             std::to_string(input->quantization.zeroPoint()) + " but the output uses scale " +
             std::to_string(output.quantization.scale()) + ", zero point " +
             std::to_string(output.quantization.zeroPoint()) +
             " (TFLite Micro copies values without requantising, so they must match)";
    }
  }
  if (axisTotal != output.shape[axis]) {
    return "the inputs add up to " + std::to_string(axisTotal) + " along axis " +
           std::to_string(axis) + " but the output has " + std::to_string(output.shape[axis]);
  }
  return std::nullopt;
}

void evalConcatenation(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::ConcatenationAttrs>(op.attributes);
  const ir::Tensor& output = graph.output(op, 0);
  const auto axis = static_cast<std::size_t>(positiveConcatenationAxis(attrs.axis, output));
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(output.dtype));
  const std::int64_t outer = dimensionProduct(output.shape, 0, axis);
  auto out = store.mutableBytes(op.outputs[0]);
  std::size_t written = 0;
  // Same order as TFLite's reference: for each outer index, each input's
  // slab along the axis in turn.
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
      const ir::Tensor& input = graph.tensor(op.inputs[slot]);
      const auto slab = static_cast<std::size_t>(
          dimensionProduct(input.shape, axis, input.shape.size()) * elementSize);
      auto in = store.bytes(op.inputs[slot]);
      std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(o * static_cast<std::int64_t>(slab)),
                  slab, out.begin() + static_cast<std::ptrdiff_t>(written));
      written += slab;
    }
  }
}

}  // namespace

extern const Kernel kConcatenationKernel{ir::OpType::Concatenation, checkConcatenation,
                                         evalConcatenation};

}  // namespace loupe::reference
