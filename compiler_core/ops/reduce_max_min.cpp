// REDUCE_MAX and REDUCE_MIN: the largest (smallest) element over the axes of
// a constant int32 operand (negative axes count from the end, a repeated axis
// counts once, a scalar input ignores them), keeping each reduced dimension
// as 1 with keep_dims. As TFLite Micro computes them (reduce_common.cc,
// reference_ops::ReduceGeneric):
//  - every output starts from the type's lowest (REDUCE_MAX) or highest
//    (REDUCE_MIN) finite value, and an input replaces it only when strictly
//    greater (smaller), visiting the input in row-major order. So a NaN is
//    never taken, inputs that are all -inf or NaN give -FLT_MAX, not -inf
//    (REDUCE_MIN: +FLT_MAX), and of equal values (0.0, -0.0) the first wins;
//  - an input with a zero-length dimension leaves the outputs at that start;
//  - int8 compares the stored values; TFLM requires the output to have the
//    input's scale and zero point.
// float32 and int8 only, as TFLM's Eval switch.
#include <algorithm>
#include <limits>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/reduction.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// Reductions over at most this many elements per output are unrolled.
constexpr std::int64_t kUnrolledMaxMinReduction = 8;

std::optional<std::string> checkReduceMaxMin(const ir::Graph& graph, const ir::Operator& op) {
  const ReductionPlan plan = planReduction(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& axis = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  if (axis.dtype != ir::DType::Int32) {
    return "axis operand " + tensorText(axis) + " must be int32, as in TFLite Micro";
  }
  if (auto problem = checkOutput(output, input.dtype, plan.outputShape)) return problem;
  if (input.dtype == ir::DType::Int8) {
    const auto& inQ = input.quantization;
    const auto& outQ = output.quantization;
    if (inQ.isPerChannel() || outQ.isPerChannel()) {
      return "per-channel quantisation is not supported (expected one scale per tensor)";
    }
    if (inQ.scale() != outQ.scale() || inQ.zeroPoint() != outQ.zeroPoint()) {
      return "output " + tensorText(output) + " must have the scale and zero point of input " +
             tensorText(input) + " (TFLite Micro compares stored int8 values)";
    }
  }
  return std::nullopt;
}

// The value every output starts from.
template <typename T, bool kMax>
constexpr T startValue() {
  return kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// Calls visit(outputOffset, inputOffset) for every input element in
// row-major order; outputOffset is the element's output among the kept
// dimensions in row-major order.
template <typename Visit>
void forEachReducedElement(const ir::Shape& shape, const std::vector<int>& axes, Visit&& visit) {
  const std::size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (int axis : axes) reduced[static_cast<std::size_t>(axis)] = true;
  std::vector<std::int64_t> index(rank, 0);
  const std::int64_t count = ir::elementCount(shape);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t outputOffset = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      if (!reduced[d]) outputOffset = outputOffset * shape[d] + index[d];
    }
    visit(outputOffset, i);
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

template <typename T, bool kMax>
void evalTyped(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ReductionPlan plan = planReduction(graph, op);
  const T* in = store.data<T>(op.inputs[0]);
  T* out = store.mutableData<T>(op.outputs[0]);
  std::fill(out, out + ir::elementCount(plan.outputShape), startValue<T, kMax>());
  forEachReducedElement(graph.input(op, 0)->shape, plan.axes, [&](std::int64_t o, std::int64_t i) {
    if constexpr (kMax) {
      out[o] = in[i] > out[o] ? in[i] : out[o];
    } else {
      out[o] = in[i] < out[o] ? in[i] : out[o];
    }
  });
}

template <bool kMax>
void evalReduceMaxMin(const ir::Graph& graph, const ir::Operator& op,
                      reference::TensorStore& store) {
  if (graph.input(op, 0)->dtype == ir::DType::Float32) {
    evalTyped<float, kMax>(graph, op, store);
  } else {
    evalTyped<std::int8_t, kMax>(graph, op, store);
  }
}

// for the kept loops: best = start; for the reduced loops, in row-major
// order: best = in > best ? in : best (<, REDUCE_MIN); out = best.
template <bool kMax>
tir::PrimFunc lowerReduceMaxMin(const ir::Graph& graph, const ir::Operator& op,
                                const std::string& functionName) {
  const ReductionPlan plan = planReduction(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const bool isFloat = input.dtype == ir::DType::Float32;
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Expr start = isFloat
                              ? tir::floatImm(startValue<float, kMax>())
                              : tir::intImm(startValue<std::int8_t, kMax>(), tir::ScalarType::Int8);

  if (input.elementCount() == 0) {
    // Nothing to compare: every output keeps the start value.
    return fb.finish(fillOutput(out, ir::elementCount(plan.outputShape), start));
  }

  const tir::Buffer best = fb.local("best", in->type, 1);
  const ReductionNest nest(input.shape, plan.axes);
  const tir::Expr value = tir::load(in, nest.inputIndex());
  const tir::Expr current = tir::load(best, 0);
  const tir::Stmt scan =
      tir::store(best, 0, tir::select(kMax ? value > current : value < current, value, current));
  return fb.finish(nest.build(best, tir::store(best, 0, start), scan,
                              tir::store(out, nest.outputIndex(), current), plan.reducedCount,
                              kUnrolledMaxMinReduction));
}

const reference::Kernel kReduceMaxKernel{ir::OpType::ReduceMax, checkReduceMaxMin,
                                         evalReduceMaxMin<true>};
const reference::Kernel kReduceMinKernel{ir::OpType::ReduceMin, checkReduceMaxMin,
                                         evalReduceMaxMin<false>};

// One comparison per input element.
std::int64_t reduceMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  return input ? input->elementCount() : 0;
}

// Version 2 is int8, 3 int16 (which the kernel refuses, as TFLM does).
constexpr ImportRule kImport{.minInputs = 2,
                             .maxInputs = 2,
                             .optionsType = optionsTypeOf<tflite::ReducerOptions>(),
                             .maxVersion = 3,
                             .readOptions = readReducerOptions};

}  // namespace

extern const OperatorDefinition kReduceMaxDefinition{
    .type = ir::OpType::ReduceMax,
    .dtypes = "float32, int8 (output quantised as the input)",
    .import = kImport,
    .shape = reductionShape,
    .kernel = &kReduceMaxKernel,
    .lower = lowerReduceMaxMin<true>,
    .macs = reduceMacs,
};

extern const OperatorDefinition kReduceMinDefinition{
    .type = ir::OpType::ReduceMin,
    .dtypes = "float32, int8 (output quantised as the input)",
    .import = kImport,
    .shape = reductionShape,
    .kernel = &kReduceMinKernel,
    .lower = lowerReduceMaxMin<false>,
    .macs = reduceMacs,
};

}  // namespace loupe::ops
