// SPLIT and SPLIT_V: the input cut along a constant axis into num_splits
// equal parts (SPLIT) or into parts of the constant size_splits, one of
// which may be -1 for what is left (SPLIT_V). TFLite Micro moves the bytes
// whatever the type; so do we.
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"

namespace loupe::ops {

namespace {

ir::Attributes readSplitOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::SplitOptions>(op)) a.set("num_splits", o->num_splits());
  return a;
}

ir::Attributes readSplitVOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::SplitVOptions>(op)) a.set("num_splits", o->num_splits());
  return a;
}

// The plan of cutting input `inputSlot` along the axis of operand
// `axisSlot` into parts of `sizes` (already resolved).
SlabPlan cutAlongAxis(const ir::Graph& graph, const ir::Operator& op, std::size_t inputSlot,
                      std::size_t axisSlot, const std::vector<std::int64_t>& requestedSizes) {
  SlabPlan plan;
  const ir::Tensor* input = graph.input(op, inputSlot);
  if (input == nullptr) return plan.problem = "an input tensor", plan;
  const ConstantAxis axis = constantAxis(graph, op, axisSlot, *input);
  if (!axis.problem.empty()) return plan.problem = axis.problem, plan;
  const std::int64_t length = input->shape[axis.axis];
  std::vector<std::int64_t> sizes = requestedSizes;
  std::int64_t known = 0;
  int unknown = -1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if (sizes[i] < 0) {
      return plan.problem = "split sizes that are not negative (at most one -1)", plan;
    } else {
      known += sizes[i];
    }
  }
  if (unknown >= 0) sizes[static_cast<std::size_t>(unknown)] = length - known;
  std::int64_t total = 0;
  for (std::int64_t size : sizes) total += size;
  if (total != length || (unknown >= 0 && known > length)) {
    return plan.problem = "split sizes that add up to the " + std::to_string(length) +
                          " positions of axis " + std::to_string(axis.axis) + " of " +
                          tensorText(*input),
           plan;
  }
  plan.dtype = input->dtype;
  plan.copy.outer = productOf(input->shape, 0, axis.axis);
  plan.copy.inner = productOf(input->shape, axis.axis + 1, input->shape.size());
  std::int64_t start = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    ir::Shape shape = input->shape;
    shape[axis.axis] = static_cast<std::int32_t>(sizes[k]);
    plan.outputShapes.push_back(shape);
    plan.copy.slabs.push_back({inputSlot, k, start, 0, sizes[k], length, sizes[k]});
    start += sizes[k];
  }
  return plan;
}

// SPLIT(axis, input) into num_splits (the outputs) equal parts.
SlabPlan planSplit(const ir::Graph& graph, const ir::Operator& op) {
  const auto count = static_cast<std::int64_t>(op.outputs.size());
  const ir::Tensor* input = graph.input(op, 1);
  std::vector<std::int64_t> sizes;
  if (input != nullptr && count > 0) {
    // A missing or wrong axis is cutAlongAxis's to report.
    if (const ConstantAxis axis = constantAxis(graph, op, 0, *input); axis.problem.empty()) {
      const std::int64_t length = input->shape[axis.axis];
      if (length % count != 0) {
        SlabPlan plan;
        plan.problem = "an axis of " + tensorText(*input) + " that divides into " +
                       std::to_string(count) + " equal parts";
        return plan;
      }
      sizes.assign(static_cast<std::size_t>(count), length / count);
    }
  }
  if (optionOf(op, "num_splits", count) != count) {
    SlabPlan plan;
    plan.problem = "num_splits " + std::to_string(optionOf(op, "num_splits")) + " equal to the " +
                   std::to_string(count) + " outputs";
    return plan;
  }
  return cutAlongAxis(graph, op, 1, 0, sizes);
}

// SPLIT_V(input, size_splits, axis).
SlabPlan planSplitV(const ir::Graph& graph, const ir::Operator& op) {
  const auto sizes = constantOperand(graph, op, 1);
  if (!sizes) {
    SlabPlan plan;
    plan.problem = "a constant size_splits operand";
    return plan;
  }
  if (sizes->size() != op.outputs.size()) {
    SlabPlan plan;
    plan.problem = std::to_string(op.outputs.size()) + " split sizes, one per output (found " +
                   std::to_string(sizes->size()) + ")";
    return plan;
  }
  return cutAlongAxis(graph, op, 0, 2, *sizes);
}

using Split = SlabOperator<planSplit>;
using SplitV = SlabOperator<planSplitV>;

const reference::Kernel kSplitKernel{ir::OpType::Split, Split::check, Split::eval};
const reference::Kernel kSplitVKernel{ir::OpType::SplitV, SplitV::check, SplitV::eval};

}  // namespace

extern const OperatorDefinition kSplitDefinition{
    .type = ir::OpType::Split,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool (bytes are moved)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .outputs = -1,
               .optionsType = optionsTypeOf<tflite::SplitOptions>(),
               .maxVersion = 4,
               .readOptions = readSplitOptions},
    .shape = Split::shape,
    .kernel = &kSplitKernel,
    .lower = Split::lower,
};

extern const OperatorDefinition kSplitVDefinition{
    .type = ir::OpType::SplitV,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool (bytes are moved)",
    .import = {.minInputs = 3,
               .maxInputs = 3,
               .outputs = -1,
               .optionsType = optionsTypeOf<tflite::SplitVOptions>(),
               .maxVersion = 3,
               .readOptions = readSplitVOptions},
    .shape = SplitV::shape,
    .kernel = &kSplitVKernel,
    .lower = SplitV::lower,
};

}  // namespace loupe::ops
