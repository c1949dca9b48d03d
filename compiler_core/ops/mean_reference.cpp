// MEAN over constant axes, bit-exact with TFLite Micro's reduce kernel
// (reduce_common.cc): float32 sums in input order; int8/int16 requantise the
// int32 sum in fixed point as reference_ops::QuantizedMeanOrSum does, for
// equal and different quantisations alike. keep_dims only changes the output
// shape, which the check compares against the model's.
#include <algorithm>
#include <limits>

#include "loupe/quantized_mean.h"
#include "ops/mean_plan.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

MeanPlanResult planMean(const ir::Tensor& input, const ir::Tensor& output,
                        const std::vector<std::int64_t>& axisValues) {
  MeanPlanResult result;
  MeanPlan& plan = result.plan;
  const int rank = static_cast<int>(input.shape.size());
  for (std::int64_t value : axisValues) {
    const auto axis = static_cast<int>(value < 0 ? value + rank : value);
    if (axis < 0 || axis >= rank) {
      result.error = "axis " + std::to_string(value) + " is out of range for input shape " +
                     ir::shapeToString(input.shape);
      return result;
    }
    if (std::find(plan.axes.begin(), plan.axes.end(), axis) == plan.axes.end()) {
      plan.axes.push_back(axis);
    }
  }
  if (static_cast<int>(plan.axes.size()) > kMeanMaxReducedAxes) {
    result.error = "MEAN over " + std::to_string(plan.axes.size()) +
                   " distinct axes is not supported (TFLite Micro reduces at most 2)";
    return result;
  }
  for (int axis : plan.axes) plan.reducedCount *= input.shape[static_cast<std::size_t>(axis)];

  if (input.dtype == ir::DType::Float32) {
    plan.arithmetic = MeanArithmetic::Float;
    return result;
  }
  const auto& inQ = input.quantization;
  const auto& outQ = output.quantization;
  plan.arithmetic = MeanArithmetic::Requantize;
  // The ratio in double from the float scales, as TFLite Micro's Prepare.
  loupe_quantize_multiplier(static_cast<double>(inQ.scale()) / static_cast<double>(outQ.scale()),
                            &plan.multiplier, &plan.shift);
  if (plan.reducedCount > 0)
    loupe_mean_fold_count(plan.reducedCount, &plan.multiplier, &plan.shift);
  plan.zeroPointSum = static_cast<std::int32_t>(static_cast<std::uint32_t>(
      static_cast<std::uint64_t>(static_cast<std::int64_t>(inQ.zeroPoint()) * plan.reducedCount)));
  plan.outputZeroPoint = outQ.zeroPoint();
  return result;
}

namespace {

constexpr int kMeanMaxRank = 5;

// The output shape of reducing `axes`, with or without kept dimensions.
ir::Shape reducedShape(const ir::Shape& input, const std::vector<int>& axes, bool keepDims) {
  ir::Shape shape;
  for (std::size_t d = 0; d < input.size(); ++d) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end();
    if (!reduced) {
      shape.push_back(input[d]);
    } else if (keepDims) {
      shape.push_back(1);
    }
  }
  return shape;
}

std::optional<std::string> checkMean(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "MEAN", 2)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& axisTensor = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8 &&
      input.dtype != ir::DType::Int16) {
    return "input dtype " + describeDtype(input.dtype) +
           " is not supported (expected float32, int8 or int16)";
  }
  if (output.dtype != input.dtype) {
    return "output dtype " + describeDtype(output.dtype) + " differs from input dtype " +
           describeDtype(input.dtype);
  }
  if (input.dtype != ir::DType::Float32) {
    if (!input.quantization.isQuantized() || !output.quantization.isQuantized()) {
      return "int8/int16 MEAN needs quantised input and output (scale and zero point)";
    }
    if (input.quantization.isPerChannel() || output.quantization.isPerChannel()) {
      return "per-channel quantisation is not supported for MEAN (expected per-tensor)";
    }
  }
  if (input.shape.size() > static_cast<std::size_t>(kMeanMaxRank)) {
    return "input rank " + std::to_string(input.shape.size()) + " exceeds 5";
  }
  if (axisTensor.dtype != ir::DType::Int32) {
    return "axis operand '" + axisTensor.name + "' has dtype " + describeDtype(axisTensor.dtype) +
           " (expected int32)";
  }
  const auto axisValues = constantIntegers(axisTensor);
  if (!axisValues) return "axis operand '" + axisTensor.name + "' is not a constant";
  auto planned = planMean(input, output, *axisValues);
  if (planned.error) return planned.error;
  const auto* attrs = std::get_if<ir::ReducerAttrs>(&op.attributes);
  const bool keepDims = attrs != nullptr && attrs->keepDims;
  const ir::Shape expected = reducedShape(input.shape, planned.plan.axes, keepDims);
  if (expected != output.shape) {
    return "reducing input shape " + ir::shapeToString(input.shape) + " over the axes with " +
           std::string(keepDims ? "keep_dims" : "no keep_dims") + " gives " +
           ir::shapeToString(expected) + " but output '" + output.name + "' has shape " +
           ir::shapeToString(output.shape);
  }
  return std::nullopt;
}

// Adds every input element into its output element's accumulator, visiting
// the input in row-major order as TFLite's reference Reduce does.
template <typename In, typename Acc>
void sumIntoOutputs(const In* input, const ir::Shape& shape, const std::vector<int>& axes,
                    Acc* sums) {
  const std::size_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (int axis : axes) reduced[static_cast<std::size_t>(axis)] = true;
  std::vector<std::int32_t> index(rank, 0);
  const std::int64_t count = ir::elementCount(shape);
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t outputOffset = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      if (!reduced[d]) outputOffset = outputOffset * shape[d] + index[d];
    }
    sums[outputOffset] = sums[outputOffset] + static_cast<Acc>(input[i]);
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

template <typename T>
void evalQuantizedMean(const MeanPlan& plan, const ir::Tensor& input, const T* in, T* out,
                       std::int64_t outputCount) {
  std::vector<std::int32_t> sums(static_cast<std::size_t>(outputCount), 0);
  std::fill(out, out + outputCount, T{0});
  if (input.elementCount() == 0) return;
  sumIntoOutputs(in, input.shape, plan.axes, sums.data());
  if (plan.reducedCount <= 0) return;
  for (std::int64_t o = 0; o < outputCount; ++o) {
    out[o] = static_cast<T>(loupe_mean_requantize(
        sums[o], plan.zeroPointSum, plan.multiplier, plan.shift, plan.outputZeroPoint,
        std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
  }
}

void evalMean(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = graph.tensor(op.inputs[0]);
  const ir::Tensor& output = graph.output(op, 0);
  const auto plan = planMean(input, output, *constantIntegers(graph.tensor(op.inputs[1]))).plan;
  const std::int64_t outputCount = output.elementCount();
  switch (input.dtype) {
    case ir::DType::Float32: {
      float* out = store.mutableData<float>(op.outputs[0]);
      std::fill(out, out + outputCount, 0.0f);
      sumIntoOutputs(store.data<float>(op.inputs[0]), input.shape, plan.axes, out);
      if (plan.reducedCount > 0) {
        for (std::int64_t o = 0; o < outputCount; ++o) {
          out[o] = out[o] / static_cast<float>(plan.reducedCount);
        }
      }
      break;
    }
    case ir::DType::Int8:
      evalQuantizedMean(plan, input, store.data<std::int8_t>(op.inputs[0]),
                        store.mutableData<std::int8_t>(op.outputs[0]), outputCount);
      break;
    case ir::DType::Int16:
      evalQuantizedMean(plan, input, store.data<std::int16_t>(op.inputs[0]),
                        store.mutableData<std::int16_t>(op.outputs[0]), outputCount);
      break;
    default:
      break;
  }
}

}  // namespace

extern const Kernel kMeanKernel{ir::OpType::Mean, checkMean, evalMean};

}  // namespace loupe::reference
