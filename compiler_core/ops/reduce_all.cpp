// REDUCE_ALL: the logical AND of bool elements over the axes of a constant
// int32 operand (negative axes count from the end, a repeated axis counts
// once, a scalar input ignores them), keeping each reduced dimension as 1
// with keep_dims. As TFLite Micro computes it (reduce_common.cc
// EvalAllHelper, reference_ops::ReduceGeneric): every output starts true and
// becomes false at the first false input; an input with a zero-length
// dimension leaves every output true. A stored byte other than 0 reads as
// true. bool only, as TFLM's Eval switch.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/reduction.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// Reductions over at most this many elements per output are unrolled.
constexpr std::int64_t kUnrolledReduction = 8;

std::optional<std::string> checkReduceAll(const ir::Graph& graph, const ir::Operator& op) {
  const ReductionPlan plan = planReduction(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& axis = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Bool) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected bool, as TFLite Micro)";
  }
  if (axis.dtype != ir::DType::Int32) {
    return "axis operand " + tensorText(axis) + " must be int32, as in TFLite Micro";
  }
  if (output.dtype != ir::DType::Bool || output.shape != plan.outputShape) {
    return "output " + tensorText(output) + "; expected bool" + ir::shapeToString(plan.outputShape);
  }
  return std::nullopt;
}

void evalReduceAll(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ReductionPlan plan = planReduction(graph, op);
  const ir::Shape& shape = graph.input(op, 0)->shape;
  const auto* in = store.data<std::uint8_t>(op.inputs[0]);
  auto* out = store.mutableData<std::uint8_t>(op.outputs[0]);
  std::fill(out, out + ir::elementCount(plan.outputShape), std::uint8_t{1});
  // Every input element in row-major order; its output is its position
  // among the kept dimensions.
  const std::size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (int axis : plan.axes) reduced[static_cast<std::size_t>(axis)] = true;
  std::vector<std::int64_t> index(rank, 0);
  const std::int64_t count = ir::elementCount(shape);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      if (!reduced[d]) o = o * shape[d] + index[d];
    }
    out[o] = in[i] != 0 && out[o] != 0 ? 1 : 0;
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

// for the kept loops: all = 1; for the reduced loops, in row-major order:
// all = in != 0 ? all : 0; out = all.
tir::PrimFunc lowerReduceAll(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const ReductionPlan plan = planReduction(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Expr isTrue = tir::intImm(1, out->type);

  if (input.elementCount() == 0) {
    // Nothing to look at: every output stays true.
    return fb.finish(fillOutput(out, ir::elementCount(plan.outputShape), isTrue));
  }

  const tir::Buffer all = fb.local("all", out->type, 1);
  const ReductionNest nest(input.shape, plan.axes);
  const tir::Expr current = tir::load(all, 0);
  const tir::Stmt scan =
      tir::store(all, 0,
                 tir::select(tir::ne(tir::load(in, nest.inputIndex()), tir::intImm(0)), current,
                             tir::intImm(0, out->type)));
  return fb.finish(nest.build(all, tir::store(all, 0, isTrue), scan,
                              tir::store(out, nest.outputIndex(), current), plan.reducedCount,
                              kUnrolledReduction));
}

const reference::Kernel kReduceAllKernel{ir::OpType::ReduceAll, checkReduceAll, evalReduceAll};

// One AND per input element.
std::int64_t reduceAllMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  return input ? input->elementCount() : 0;
}

}  // namespace

extern const OperatorDefinition kReduceAllDefinition{
    .type = ir::OpType::ReduceAll,
    .dtypes = "bool",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ReducerOptions>(),
               .maxVersion = 1,
               .readOptions = readReducerOptions},
    .shape = reductionShape,
    .kernel = &kReduceAllKernel,
    .lower = lowerReduceAll,
    .macs = reduceAllMacs,
};

}  // namespace loupe::ops
