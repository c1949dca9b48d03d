// ARG_MAX and ARG_MIN: the index of the largest (smallest) element along a
// constant axis, which the output drops. As in TFLite Micro, the first of
// equal elements wins (strict comparison), so a NaN never replaces the
// running best; the index is written as int32 or int64.
#include <cstring>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

ir::Attributes readArgMaxOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::ArgMaxOptions>(op)) {
    a.set("output_type", static_cast<std::int64_t>(o->output_type()));
  }
  return a;
}

ir::Attributes readArgMinOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::ArgMinOptions>(op)) {
    a.set("output_type", static_cast<std::int64_t>(o->output_type()));
  }
  return a;
}

// The input seen as [outer, axis, inner].
struct ArgPlan {
  std::int64_t outer = 1, length = 1, inner = 1;
  ir::Shape outputShape;
  std::string problem;
};

ArgPlan planArg(const ir::Graph& graph, const ir::Operator& op) {
  ArgPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return plan.problem = "an input", plan;
  const ConstantAxis axis = constantAxis(graph, op, 1, *input);
  if (!axis.problem.empty()) return plan.problem = axis.problem, plan;
  const std::size_t at = axis.axis;
  plan.outer = productOf(input->shape, 0, at);
  plan.length = input->shape[at];
  plan.inner = productOf(input->shape, at + 1, input->shape.size());
  if (plan.length < 1) return plan.problem = "a non-empty axis in " + tensorText(*input), plan;
  plan.outputShape = input->shape;
  plan.outputShape.erase(plan.outputShape.begin() + static_cast<std::ptrdiff_t>(at));
  return plan;
}

std::optional<InferredOutput> argShape(const ir::Graph& graph, const ir::Operator& op) {
  const ArgPlan plan = planArg(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {ir::DType::Int32, ir::DType::Int64});
}

std::optional<std::string> checkArg(const ir::Graph& graph, const ir::Operator& op) {
  const ArgPlan plan = planArg(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8 &&
      input.dtype != ir::DType::Int16 && input.dtype != ir::DType::Int32) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32, int8, int16 or int32)";
  }
  if ((output.dtype != ir::DType::Int32 && output.dtype != ir::DType::Int64) ||
      output.shape != plan.outputShape) {
    return "output " + tensorText(output) + " must be int32 or int64" +
           ir::shapeToString(plan.outputShape);
  }
  return std::nullopt;
}

template <typename T, bool kMax>
void evalTyped(const ArgPlan& plan, const T* in, ir::DType outType, std::uint8_t* out) {
  for (std::int64_t o = 0; o < plan.outer; ++o) {
    for (std::int64_t n = 0; n < plan.inner; ++n) {
      const T* row = in + o * plan.length * plan.inner + n;
      T best = row[0];
      std::int64_t index = 0;
      for (std::int64_t i = 1; i < plan.length; ++i) {
        const T value = row[i * plan.inner];
        if (kMax ? value > best : value < best) {
          best = value;
          index = i;
        }
      }
      const std::int64_t at = o * plan.inner + n;
      if (outType == ir::DType::Int32) {
        const auto narrow = static_cast<std::int32_t>(index);
        std::memcpy(out + at * 4, &narrow, 4);
      } else {
        std::memcpy(out + at * 8, &index, 8);
      }
    }
  }
}

template <bool kMax>
void evalArg(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ArgPlan plan = planArg(graph, op);
  const ir::DType outType = graph.output(op, 0).dtype;
  std::uint8_t* out = store.mutableBytes(op.outputs[0]).data();
  switch (graph.input(op, 0)->dtype) {
    case ir::DType::Float32:
      return evalTyped<float, kMax>(plan, store.data<float>(op.inputs[0]), outType, out);
    case ir::DType::Int8:
      return evalTyped<std::int8_t, kMax>(plan, store.data<std::int8_t>(op.inputs[0]), outType,
                                          out);
    case ir::DType::Int16:
      return evalTyped<std::int16_t, kMax>(plan, store.data<std::int16_t>(op.inputs[0]), outType,
                                           out);
    default:
      return evalTyped<std::int32_t, kMax>(plan, store.data<std::int32_t>(op.inputs[0]), outType,
                                           out);
  }
}

// for o, n: best = row[0]; index = 0; for i in 1..length: if row[i] beats
// best, take it; out = index.
template <bool kMax>
tir::PrimFunc lowerArg(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  const ArgPlan plan = planArg(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Buffer best = fb.local("best", in->type, 1);
  const tir::Buffer index = fb.local("index", tir::ScalarType::Int32, 1);
  const tir::Var o = tir::makeVar("o"), n = tir::makeVar("n"), i = tir::makeVar("i");
  const tir::Expr rowStart =
      tir::refVar(o) * tir::intImm(plan.length * plan.inner) + tir::refVar(n);
  const tir::Expr value = tir::load(in, rowStart + tir::refVar(i) * tir::intImm(plan.inner));
  const tir::Expr beats =
      kMax ? value > tir::load(best, tir::intImm(0)) : value < tir::load(best, tir::intImm(0));
  const tir::Stmt scan = tir::forLoop(
      i, tir::intImm(1), tir::intImm(plan.length - 1),
      tir::ifThenElse(beats, tir::seq({tir::store(best, tir::intImm(0), value),
                                       tir::store(index, tir::intImm(0), tir::refVar(i))})));
  const tir::Stmt element =
      tir::seq({tir::store(best, tir::intImm(0), tir::load(in, rowStart)),
                tir::store(index, tir::intImm(0), tir::intImm(0)), scan,
                tir::store(out, tir::refVar(o) * tir::intImm(plan.inner) + tir::refVar(n),
                           tir::cast(out->type, tir::load(index, tir::intImm(0))))});
  const tir::Stmt loops =
      tir::forLoop(o, tir::intImm(0), tir::intImm(plan.outer),
                   tir::forLoop(n, tir::intImm(0), tir::intImm(plan.inner), element));
  return fb.finish(tir::allocate(best, tir::allocate(index, loops)));
}

const reference::Kernel kArgMaxKernel{ir::OpType::ArgMax, checkArg, evalArg<true>};
const reference::Kernel kArgMinKernel{ir::OpType::ArgMin, checkArg, evalArg<false>};

// One comparison per input element.
std::int64_t argMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  return input ? input->elementCount() : 0;
}

}  // namespace

extern const OperatorDefinition kArgMaxDefinition{
    .type = ir::OpType::ArgMax,
    .dtypes = "float32, int8, int16, int32 in; int32 or int64 out",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ArgMaxOptions>(),
               .maxVersion = 3,
               .readOptions = readArgMaxOptions},
    .shape = argShape,
    .kernel = &kArgMaxKernel,
    .lower = lowerArg<true>,
    .macs = argMacs,
};

extern const OperatorDefinition kArgMinDefinition{
    .type = ir::OpType::ArgMin,
    .dtypes = "float32, int8, int16, int32 in; int32 or int64 out",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ArgMinOptions>(),
               .maxVersion = 3,
               .readOptions = readArgMinOptions},
    .shape = argShape,
    .kernel = &kArgMinKernel,
    .lower = lowerArg<false>,
    .macs = argMacs,
};

}  // namespace loupe::ops
