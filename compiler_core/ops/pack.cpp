// PACK: values_count tensors of one shape stacked along a new axis; UNPACK
// its inverse, one output per position of the axis, which it removes.
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"

namespace loupe::ops {

namespace {

ir::Attributes readPackOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::PackOptions>(op)) {
    a.set("values_count", o->values_count()).set("axis", o->axis());
  }
  return a;
}

ir::Attributes readUnpackOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::UnpackOptions>(op)) {
    a.set("num", o->num()).set("axis", o->axis());
  }
  return a;
}

SlabPlan planPack(const ir::Graph& graph, const ir::Operator& op) {
  SlabPlan plan;
  const ir::Tensor* first = graph.input(op, 0);
  if (first == nullptr) return plan.problem = "at least one input", plan;
  const auto count = static_cast<std::int64_t>(op.inputs.size());
  if (optionOf(op, "values_count", count) != count) {
    return plan.problem = "values_count " + std::to_string(optionOf(op, "values_count", 0)) +
                          " equal to the " + std::to_string(count) + " inputs",
           plan;
  }
  const int rank = static_cast<int>(first->shape.size());
  // The new axis is an axis of the output, of rank + 1.
  const auto axis = normalizedAxis(optionOf(op, "axis", 0), rank + 1);
  if (!axis) {
    return plan.problem = "axis " + std::to_string(optionOf(op, "axis", 0)) + " within rank " +
                          std::to_string(rank + 1),
           plan;
  }
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const ir::Tensor* input = graph.input(op, slot);
    if (input == nullptr || input->shape != first->shape || input->dtype != first->dtype) {
      return plan.problem = "every input of " + tensorText(*first) + "'s shape and type", plan;
    }
  }
  const auto at = static_cast<std::size_t>(*axis);
  ir::Shape shape = first->shape;
  shape.insert(shape.begin() + *axis, static_cast<std::int32_t>(count));
  plan.dtype = first->dtype;
  plan.outputShapes = {shape};
  plan.copy.outer = productOf(first->shape, 0, at);
  plan.copy.inner = productOf(first->shape, at, first->shape.size());
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    plan.copy.slabs.push_back({slot, 0, 0, static_cast<std::int64_t>(slot), 1, 1, count});
  }
  return plan;
}

SlabPlan planUnpack(const ir::Graph& graph, const ir::Operator& op) {
  SlabPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return plan.problem = "an input", plan;
  const int rank = static_cast<int>(input->shape.size());
  const auto axis = normalizedAxis(optionOf(op, "axis", 0), rank);
  if (!axis) {
    return plan.problem =
               "axis " + std::to_string(optionOf(op, "axis", 0)) + " within " + tensorText(*input),
           plan;
  }
  const auto at = static_cast<std::size_t>(*axis);
  const std::int64_t length = input->shape[at];
  const auto count = static_cast<std::int64_t>(op.outputs.size());
  if (length != count || optionOf(op, "num", count) != count) {
    return plan.problem = "one output per position of axis " + std::to_string(*axis) + " of " +
                          tensorText(*input) + " (found " + std::to_string(count) +
                          " outputs, num " + std::to_string(optionOf(op, "num", count)) + ")",
           plan;
  }
  ir::Shape shape = input->shape;
  shape.erase(shape.begin() + *axis);
  plan.dtype = input->dtype;
  plan.outputShapes.assign(static_cast<std::size_t>(count), shape);
  plan.copy.outer = productOf(input->shape, 0, at);
  plan.copy.inner = productOf(input->shape, at + 1, input->shape.size());
  for (std::size_t k = 0; k < op.outputs.size(); ++k) {
    plan.copy.slabs.push_back({0, k, static_cast<std::int64_t>(k), 0, 1, length, 1});
  }
  return plan;
}

using Pack = SlabOperator<planPack>;
using Unpack = SlabOperator<planUnpack>;

const reference::Kernel kPackKernel{ir::OpType::Pack, Pack::check, Pack::eval};
const reference::Kernel kUnpackKernel{ir::OpType::Unpack, Unpack::check, Unpack::eval};

}  // namespace

extern const OperatorDefinition kPackDefinition{
    .type = ir::OpType::Pack,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool (bytes are moved)",
    .import = {.maxInputs = -1,
               .optionsType = optionsTypeOf<tflite::PackOptions>(),
               .maxVersion = 4,
               .readOptions = readPackOptions},
    .shape = Pack::shape,
    .kernel = &kPackKernel,
    .lower = Pack::lower,
};

extern const OperatorDefinition kUnpackDefinition{
    .type = ir::OpType::Unpack,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool (bytes are moved)",
    .import = {.outputs = -1,
               .optionsType = optionsTypeOf<tflite::UnpackOptions>(),
               .maxVersion = 4,
               .readOptions = readUnpackOptions},
    .shape = Unpack::shape,
    .kernel = &kUnpackKernel,
    .lower = Unpack::lower,
};

}  // namespace loupe::ops
