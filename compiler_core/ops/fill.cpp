// FILL(dims, value): a tensor of shape `dims` whose every element is the
// scalar `value`. As in TFLite Micro, dims must be a constant 1-D int8,
// int16, int32 or int64 tensor equal to the output's shape (the output shape
// is fixed in the model), while value may be computed at run time; value and
// output are float32, int32 or int8 of one type. The stored value is copied
// as it is: an int8 value is not requantised to the output's parameters.
#include <cstdint>
#include <cstring>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// The constant dims operand in any integer type TFLite Micro compares with
// the output's shape, or nullopt.
std::optional<std::vector<std::int64_t>> constantDims(const ir::Tensor& dims) {
  if (!dims.isConstant) return std::nullopt;
  const auto count = static_cast<std::size_t>(dims.elementCount());
  auto widen = [&]<typename T>(T) -> std::optional<std::vector<std::int64_t>> {
    if (dims.data.size() < count * sizeof(T)) return std::nullopt;
    std::vector<std::int64_t> values(count);
    for (std::size_t i = 0; i < count; ++i) {
      T value;
      std::memcpy(&value, dims.data.data() + i * sizeof(T), sizeof(T));
      values[i] = value;
    }
    return values;
  };
  switch (dims.dtype) {
    case ir::DType::Int8:
      return widen(std::int8_t{});
    case ir::DType::Int16:
      return widen(std::int16_t{});
    case ir::DType::Int32:
      return widen(std::int32_t{});
    case ir::DType::Int64:
      return widen(std::int64_t{});
    default:
      return std::nullopt;
  }
}

struct FillPlan {
  ir::Shape shape;  // the output's, from dims
  std::string problem;
};

FillPlan planFill(const ir::Graph& graph, const ir::Operator& op) {
  FillPlan plan;
  const ir::Tensor* dims = graph.input(op, 0);
  const ir::Tensor* value = graph.input(op, 1);
  if (dims == nullptr || value == nullptr) return plan.problem = "dims and value operands", plan;
  const auto values = constantDims(*dims);
  if (!values || dims->shape.size() != 1) {
    return plan.problem = "a constant 1-D int8, int16, int32 or int64 dims operand (found " +
                          tensorText(*dims) + ")",
           plan;
  }
  for (std::int64_t extent : *values) {
    if (extent < 0 || extent > INT32_MAX) {
      return plan.problem = "dims that are not negative (found " + std::to_string(extent) + ")",
             plan;
    }
    plan.shape.push_back(static_cast<std::int32_t>(extent));
  }
  if (!value->shape.empty()) {
    return plan.problem = "a scalar value operand (found " + tensorText(*value) + ")", plan;
  }
  return plan;
}

std::optional<InferredOutput> fillShape(const ir::Graph& graph, const ir::Operator& op) {
  const FillPlan plan = planFill(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.shape, {graph.input(op, 1)->dtype});
}

std::optional<std::string> checkFill(const ir::Graph& graph, const ir::Operator& op) {
  const FillPlan plan = planFill(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& value = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (value.dtype != ir::DType::Float32 && value.dtype != ir::DType::Int32 &&
      value.dtype != ir::DType::Int8) {
    return "value dtype " + reference::describeDtype(value.dtype) +
           " is not supported (expected float32, int32 or int8, as TFLite Micro)";
  }
  if (output.dtype != value.dtype || output.shape != plan.shape) {
    return "output " + tensorText(output) + "; expected " +
           std::string(ir::dtypeName(value.dtype)) + ir::shapeToString(plan.shape) +
           " (the value's type, the dims' shape)";
  }
  return std::nullopt;
}

void evalFill(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto elementSize = ir::dtypeSize(graph.input(op, 1)->dtype);
  const auto value = store.bytes(op.inputs[1]);
  const auto out = store.mutableBytes(op.outputs[0]);
  for (std::size_t at = 0; at + elementSize <= out.size(); at += elementSize) {
    std::memcpy(out.data() + at, value.data(), elementSize);
  }
}

// for i: out[i] = value[0]. The dims operand only shaped the output at
// compile time; the function does not take it.
tir::PrimFunc lowerFill(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer value = fb.input(op.inputs[1], "value");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Var i = tir::makeVar("i");
  return fb.finish(tir::forLoop(i, tir::intImm(0), tir::intImm(graph.output(op, 0).elementCount()),
                                tir::store(out, tir::refVar(i), tir::load(value, tir::intImm(0)))));
}

const reference::Kernel kFillKernel{ir::OpType::Fill, checkFill, evalFill};

}  // namespace

extern const OperatorDefinition kFillDefinition{
    .type = ir::OpType::Fill,
    .dtypes = "float32, int32, int8 value and output; constant int8, int16, int32 or int64 dims",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::FillOptions>(),
               .maxVersion = 4},
    .shape = fillShape,
    .kernel = &kFillKernel,
    .lower = lowerFill,
};

}  // namespace loupe::ops
