// SUM: the sum over the axes of a constant int32 operand (negative axes count
// from the end, a repeated axis counts once, a scalar input ignores them),
// keeping each reduced dimension as 1 with keep_dims. As TFLite Micro computes
// it (reduce_common.cc EvalSumHelper):
//  - float32: each output starts from 0.0f and adds its inputs (input + sum)
//    in row-major order;
//  - int8/int16: reference_ops::QuantizedMeanOrSum with compute_sum, for equal
//    and different quantisations alike: the wrapping int32 sum of the stored
//    values, less input zero point * count, is requantised by input scale /
//    output scale (no 1/count, unlike MEAN), plus the output zero point,
//    clamped; loupe/quantized_mean.h's helper does it for both operators;
//  - an input with a zero-length dimension gives stored zeros (not the
//    output zero point), as TFLM returns before requantising.
#include <algorithm>
#include <limits>

#include "ir/graph_printer.h"
#include "loupe/fixed_point_math.h"
#include "loupe/quantized_mean.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/reduction.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// Sums of at most this many elements per output are unrolled.
constexpr std::int64_t kUnrolledSum = 8;

// The fixed-point constants of an int8/int16 SUM (checked quantisations).
struct SumRequantization {
  std::int32_t multiplier = 0;  // of input scale / output scale
  int shift = 0;
  std::int32_t zeroPointSum = 0;  // input zero point * count, wrapped to int32
  std::int32_t outputZeroPoint = 0;
  std::int32_t qMin = 0, qMax = 0;
};

SumRequantization requantizationOf(const ir::Tensor& input, const ir::Tensor& output,
                                   std::int64_t reducedCount) {
  SumRequantization r;
  // The ratio in double from the float scales, as TFLM's Prepare.
  loupe_quantize_multiplier(static_cast<double>(input.quantization.scale()) /
                                static_cast<double>(output.quantization.scale()),
                            &r.multiplier, &r.shift);
  r.zeroPointSum = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(
      static_cast<std::int64_t>(input.quantization.zeroPoint()) * reducedCount)));
  r.outputZeroPoint = output.quantization.zeroPoint();
  const bool int8 = input.dtype == ir::DType::Int8;
  r.qMin =
      int8 ? std::numeric_limits<std::int8_t>::min() : std::numeric_limits<std::int16_t>::min();
  r.qMax =
      int8 ? std::numeric_limits<std::int8_t>::max() : std::numeric_limits<std::int16_t>::max();
  return r;
}

std::optional<std::string> checkSum(const ir::Graph& graph, const ir::Operator& op) {
  const ReductionPlan plan = planReduction(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& axis = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8 &&
      input.dtype != ir::DType::Int16) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32, int8 or int16, as TFLite Micro)";
  }
  if (axis.dtype != ir::DType::Int32) {
    return "axis operand " + tensorText(axis) + " must be int32, as in TFLite Micro";
  }
  if (auto problem = checkOutput(output, input.dtype, plan.outputShape)) return problem;
  if (input.dtype != ir::DType::Float32) {
    if (auto problem = reference::checkPerTensorQuantization("input", input)) return problem;
    if (auto problem = reference::checkPerTensorQuantization("output", output)) return problem;
  }
  return std::nullopt;
}

// Calls visit(outputOffset, inputOffset) for every input element in
// row-major order, TFLM's order of accumulation; outputOffset is the
// element's output among the kept dimensions in row-major order.
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

template <typename T>
void evalQuantizedSum(const ReductionPlan& plan, const ir::Tensor& input, const ir::Tensor& output,
                      const T* in, T* out) {
  const std::int64_t outputCount = ir::elementCount(plan.outputShape);
  std::fill(out, out + outputCount, T{0});
  if (input.elementCount() == 0) return;
  std::vector<std::int32_t> sums(static_cast<std::size_t>(outputCount), 0);
  forEachReducedElement(input.shape, plan.axes, [&](std::int64_t o, std::int64_t i) {
    sums[static_cast<std::size_t>(o)] =
        loupe_wrapping_add_i32(sums[static_cast<std::size_t>(o)], in[i]);
  });
  const SumRequantization r = requantizationOf(input, output, plan.reducedCount);
  for (std::int64_t o = 0; o < outputCount; ++o) {
    out[o] = static_cast<T>(loupe_mean_requantize(sums[static_cast<std::size_t>(o)], r.zeroPointSum,
                                                  r.multiplier, r.shift, r.outputZeroPoint, r.qMin,
                                                  r.qMax));
  }
}

void evalSum(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ReductionPlan plan = planReduction(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  switch (input.dtype) {
    case ir::DType::Float32: {
      const float* in = store.data<float>(op.inputs[0]);
      float* out = store.mutableData<float>(op.outputs[0]);
      std::fill(out, out + ir::elementCount(plan.outputShape), 0.0f);
      forEachReducedElement(input.shape, plan.axes,
                            [&](std::int64_t o, std::int64_t i) { out[o] = in[i] + out[o]; });
      break;
    }
    case ir::DType::Int8:
      evalQuantizedSum(plan, input, output, store.data<std::int8_t>(op.inputs[0]),
                       store.mutableData<std::int8_t>(op.outputs[0]));
      break;
    default:
      evalQuantizedSum(plan, input, output, store.data<std::int16_t>(op.inputs[0]),
                       store.mutableData<std::int16_t>(op.outputs[0]));
      break;
  }
}

// for the kept loops: acc = 0; for the reduced loops, in row-major order:
// acc = in + acc (float) or acc + (int32)in (int8/int16); out = acc, or
// loupe_mean_requantize(acc, ...) with the SUM constants.
tir::PrimFunc lowerSum(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  const ReductionPlan plan = planReduction(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const bool isFloat = input.dtype == ir::DType::Float32;
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Expr zero = isFloat ? tir::floatImm(0.0) : tir::intImm(0);

  if (input.elementCount() == 0) {
    // Nothing to add: every output holds the zero TFLM stores first.
    return fb.finish(
        fillOutput(out, ir::elementCount(plan.outputShape), tir::cast(out->type, zero)));
  }

  const tir::Buffer acc =
      fb.local("acc", isFloat ? tir::ScalarType::Float32 : tir::ScalarType::Int32, 1);
  const ReductionNest nest(input.shape, plan.axes);
  const tir::Expr inAt = nest.inputIndex();

  const tir::Expr total = tir::load(acc, 0);
  tir::Expr update;
  tir::Expr result = total;
  if (isFloat) {
    update = tir::load(in, inAt) + total;
  } else {
    // An int32 sum of many int16 values can leave the int32 range; it wraps
    // as TFLM's does on its targets, without C's undefined overflow.
    const tir::Expr value = tir::cast(tir::ScalarType::Int32, tir::load(in, inAt));
    const std::int64_t largest = in->type == tir::ScalarType::Int8 ? 128 : 32768;
    update =
        plan.reducedCount * largest > std::numeric_limits<std::int32_t>::max()
            ? tir::callIntrinsic("loupe.wrapping_add_i32", tir::ScalarType::Int32, {total, value})
            : total + value;
    const SumRequantization r = requantizationOf(input, output, plan.reducedCount);
    result =
        tir::cast(out->type, tir::callIntrinsic("loupe.mean_requantize", tir::ScalarType::Int32,
                                                {total, r.zeroPointSum, r.multiplier, r.shift,
                                                 r.outputZeroPoint, r.qMin, r.qMax}));
  }
  return fb.finish(nest.build(acc, tir::store(acc, 0, zero), tir::store(acc, 0, update),
                              tir::store(out, nest.outputIndex(), result), plan.reducedCount,
                              kUnrolledSum));
}

const reference::Kernel kSumKernel{ir::OpType::Sum, checkSum, evalSum};

// One addition per input element.
std::int64_t sumMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  return input ? input->elementCount() : 0;
}

}  // namespace

// TFLite's op_version gives SUM version 2 for int8 and 1 otherwise (int16 too).
extern const OperatorDefinition kSumDefinition{
    .type = ir::OpType::Sum,
    .dtypes = "float32, int8, int16",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ReducerOptions>(),
               .maxVersion = 2,
               .readOptions = readReducerOptions},
    .shape = reductionShape,
    .kernel = &kSumKernel,
    .lower = lowerSum,
    .macs = sumMacs,
};

}  // namespace loupe::ops
