// SHAPE: the input's dimensions as a 1-D int32 or int64 tensor of its rank.
// Shapes are static, so the values are known at compile time: the input's
// data is never read and the lowering stores immediates. out_type names the
// output type when it is INT32 or INT64; other values are ignored, since an
// unset out_type reads as FLOAT32 and TFLite Micro never looks at it (it
// follows the output tensor's type). TFLite Micro writes int32 only; int64
// is TFLite's other out_type, with the same values.
#include <cstring>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

ir::Attributes readShapeOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::ShapeOptions>(op)) {
    a.set("out_type", static_cast<std::int64_t>(o->out_type()));
  }
  return a;
}

// The output type out_type asks for, or nullopt when it names neither.
std::optional<ir::DType> requestedType(const ir::Operator& op) {
  switch (optionOf(op, "out_type", -1)) {
    case static_cast<std::int64_t>(tflite::TensorType::INT32):
      return ir::DType::Int32;
    case static_cast<std::int64_t>(tflite::TensorType::INT64):
      return ir::DType::Int64;
    default:
      return std::nullopt;
  }
}

std::optional<InferredOutput> shapeShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  const auto rank = static_cast<std::int32_t>(input->shape.size());
  if (const auto type = requestedType(op)) return shaped({rank}, {*type});
  return shaped({rank}, {ir::DType::Int32, ir::DType::Int64});
}

std::optional<std::string> checkShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  const ir::Tensor& output = graph.output(op, 0);
  if (output.dtype != ir::DType::Int32 && output.dtype != ir::DType::Int64) {
    return "output dtype " + reference::describeDtype(output.dtype) +
           " is not supported (expected int32 or int64)";
  }
  if (const auto type = requestedType(op); type && *type != output.dtype) {
    return "out_type " + reference::describeDtype(*type) + " disagrees with output " +
           tensorText(output);
  }
  const ir::Shape expected{static_cast<std::int32_t>(input->shape.size())};
  if (output.shape != expected) {
    return "output " + tensorText(output) + " must be " + ir::shapeToString(expected) +
           " (one value per dimension of the input)";
  }
  return std::nullopt;
}

void evalShape(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Shape& dims = graph.input(op, 0)->shape;
  const bool wide = graph.output(op, 0).dtype == ir::DType::Int64;
  std::uint8_t* out = store.mutableBytes(op.outputs[0]).data();
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (wide) {
      const std::int64_t value = dims[d];
      std::memcpy(out + d * sizeof value, &value, sizeof value);
    } else {
      const std::int32_t value = dims[d];
      std::memcpy(out + d * sizeof value, &value, sizeof value);
    }
  }
}

// out[d] = dims[d], immediates: the function takes only the output.
tir::PrimFunc lowerShape(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  const ir::Shape& dims = graph.input(op, 0)->shape;
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  std::vector<tir::Stmt> stores;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    stores.push_back(tir::store(out, tir::intImm(static_cast<std::int64_t>(d)),
                                tir::intImm(dims[d], out->type)));
  }
  return fb.finish(tir::seq(std::move(stores)));
}

const reference::Kernel kShapeKernel{ir::OpType::Shape, checkShape, evalShape};

}  // namespace

extern const OperatorDefinition kShapeDefinition{
    .type = ir::OpType::Shape,
    .dtypes = "any input; int32 or int64 output (out_type)",
    .import = {.optionsType = optionsTypeOf<tflite::ShapeOptions>(),
               .maxVersion = 1,
               .readOptions = readShapeOptions},
    .shape = shapeShape,
    .kernel = &kShapeKernel,
    .lower = lowerShape,
};

}  // namespace loupe::ops
