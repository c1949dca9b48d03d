// FULLY_CONNECTED: output[b, u] = sum_d input[b, d] * weights[u, d] + bias[u]
// with [units, depth] weights, an optional bias, and the input flattened to
// [batches, depth] (keep_num_dims only changes the output's shape, which the
// model already states). Follows TFLite Micro's reference kernels:
//   float32          float accumulation in depth order, bias added last;
//   int8 per-tensor  (w - w_zero_point) * (x - x_zero_point) in int32, one
//                    multiplier computed from the float product of scales;
//   int8 per-channel w * (x - x_zero_point), one multiplier per unit;
//   16x8             int16 activations without zero points, int8 weights;
//                    the int64 sum requantised with an int64 bias or none,
//                    its low 32 bits with an int32 bias.
#include <cmath>
#include <cstdint>
#include <vector>

#include "loupe/fused_activation.h"
#include "loupe/quantized_arith.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

namespace {

struct FullyConnectedShape {
  std::int64_t batches = 0;
  int units = 0;
  int depth = 0;
};

FullyConnectedShape fullyConnectedShape(const ir::Tensor& weights, const ir::Tensor& output) {
  FullyConnectedShape s;
  s.units = output.shape.back();
  s.depth = weights.shape.back();
  s.batches = s.units > 0 ? output.elementCount() / s.units : 0;
  return s;
}

std::optional<std::string> checkFullyConnected(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = attributesOf<ir::FullyConnectedAttrs>(op);
  if (attrs == nullptr) return "FULLY_CONNECTED operator carries no fully-connected attributes";
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* weights = graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  if (input == nullptr) return "missing the input tensor (input 0)";
  if (weights == nullptr) return "missing the weights tensor (input 1)";
  if (op.outputs.size() != 1)
    return "expected one output, found " + std::to_string(op.outputs.size());
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = checkWeightedDtypes(*input, *weights, bias, output,
                                         {ir::DType::Int64, ir::DType::Int32})) {
    return problem;
  }
  if (weights->shape.size() != 2) {
    return describeTensor("weights", *weights) + " must be 2-D [units, depth]";
  }
  if (output.shape.empty()) return describeTensor("output", output) + " is a scalar";
  if (auto problem = unsupportedActivation(attrs->activation)) return problem;
  const FullyConnectedShape s = fullyConnectedShape(*weights, output);
  if (s.units != weights->shape[0]) {
    return describeTensor("output", output) + " has " + std::to_string(s.units) +
           describeTensor(" units in its last dimension but weights", *weights) + " have " +
           std::to_string(weights->shape[0]);
  }
  if (input->elementCount() != s.batches * s.depth) {
    return describeTensor("input", *input) + " has " + std::to_string(input->elementCount()) +
           " elements; expected " + std::to_string(s.batches) + " batches x " +
           std::to_string(s.depth) + " (the weights' depth)";
  }
  if (bias != nullptr && bias->elementCount() != s.units) {
    return describeTensor("bias", *bias) + " has " + std::to_string(bias->elementCount()) +
           " elements; expected " + std::to_string(s.units) + " (one per unit)";
  }
  if (input->dtype != ir::DType::Float32) {
    if (auto problem = checkWeightedQuantization(*input, *weights, output, s.units, 0)) {
      return problem;
    }
    // TFLite refuses a per-tensor layer whose bias scale strays from
    // input_scale * weights_scale by more than 2% of the output scale.
    if (!weights->quantization.isPerChannel() && bias != nullptr &&
        bias->quantization.isQuantized()) {
      const double product = static_cast<double>(input->quantization.scale()) *
                             static_cast<double>(weights->quantization.scale());
      const double difference = std::abs(product - bias->quantization.scale());
      if (difference / output.quantization.scale() > 0.02) {
        return "bias scale " + std::to_string(bias->quantization.scale()) +
               " differs from input scale x weights scale (" + std::to_string(product) +
               ") by more than 2% of the output scale";
      }
    }
  }
  return std::nullopt;
}

template <typename Finish>
void forEachUnit(const FullyConnectedShape& s, Finish finish) {
  for (std::int64_t b = 0; b < s.batches; ++b) {
    for (int u = 0; u < s.units; ++u) finish(b, u);
  }
}

void evalFullyConnected(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& weights = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  const FullyConnectedShape s = fullyConnectedShape(weights, output);
  const int depth = s.depth;

  if (input.dtype == ir::DType::Float32) {
    const FloatRange range = floatActivationRange(attrs.activation);
    const float* x = store.data<float>(op.inputs[0]);
    const float* w = store.data<float>(op.inputs[1]);
    const float* biasData = bias ? store.data<float>(op.inputs[2]) : nullptr;
    float* out = store.mutableData<float>(op.outputs[0]);
    forEachUnit(s, [&](std::int64_t b, int u) {
      float total = 0.0f;
      for (int d = 0; d < depth; ++d) total += x[b * depth + d] * w[std::int64_t{u} * depth + d];
      const float biasValue = biasData ? biasData[u] : 0.0f;
      out[b * s.units + u] = loupe_clamp_f32(total + biasValue, range.min, range.max);
    });
    return;
  }

  const bool perChannel = weights.quantization.isPerChannel();
  const std::vector<QuantizedMultiplier> multipliers =
      fullyConnectedMultipliers(input, weights, output, s.units);
  // The per-channel kernels assume symmetric weights and ignore the zero point.
  const std::int64_t weightsOffset = perChannel ? 0 : -weights.quantization.zeroPoint();
  const IntRange range = quantizedActivationRange(attrs.activation, output);
  const auto* w = store.data<std::int8_t>(op.inputs[1]);

  if (input.dtype == ir::DType::Int8) {
    const auto* x = store.data<std::int8_t>(op.inputs[0]);
    const std::int64_t inputOffset = -input.quantization.zeroPoint();
    const std::int32_t outputOffset = output.quantization.zeroPoint();
    const std::int32_t* biasData = bias ? store.data<std::int32_t>(op.inputs[2]) : nullptr;
    auto* out = store.mutableData<std::int8_t>(op.outputs[0]);
    forEachUnit(s, [&](std::int64_t b, int u) {
      // int64, truncated below: equals TFLite's int32 sum modulo 2^32.
      std::int64_t acc = 0;
      for (int d = 0; d < depth; ++d) {
        acc += (w[std::int64_t{u} * depth + d] + weightsOffset) * (x[b * depth + d] + inputOffset);
      }
      if (biasData) acc += biasData[u];
      const auto& m = multipliers[static_cast<std::size_t>(u)];
      out[b * s.units + u] = static_cast<std::int8_t>(
          loupe_requantize_acc_i32(static_cast<std::int32_t>(acc), m.multiplier, m.shift,
                                   outputOffset, range.min, range.max));
    });
    return;
  }

  // 16x8: TFLite Micro applies no input or output zero point.
  const auto* x = store.data<std::int16_t>(op.inputs[0]);
  auto* out = store.mutableData<std::int16_t>(op.outputs[0]);
  const bool wideSum = requantizesInt64Sum(input, bias);
  const std::int64_t* bias64 =
      wideSum && bias != nullptr ? store.data<std::int64_t>(op.inputs[2]) : nullptr;
  const std::int32_t* bias32 = !wideSum ? store.data<std::int32_t>(op.inputs[2]) : nullptr;
  forEachUnit(s, [&](std::int64_t b, int u) {
    std::int64_t acc = 0;
    for (int d = 0; d < depth; ++d) {
      acc += (w[std::int64_t{u} * depth + d] + weightsOffset) * x[b * depth + d];
    }
    const auto& m = multipliers[static_cast<std::size_t>(u)];
    std::int32_t value;
    if (wideSum) {
      if (bias64) acc += bias64[u];
      value = loupe_requantize_acc_i64(acc, m.multiplier, m.shift, range.min, range.max);
    } else {
      value = loupe_requantize_acc_i32(static_cast<std::int32_t>(acc + bias32[u]), m.multiplier,
                                       m.shift, 0, range.min, range.max);
    }
    out[b * s.units + u] = static_cast<std::int16_t>(value);
  });
}

}  // namespace

extern const Kernel kFullyConnectedKernel{ir::OpType::FullyConnected, checkFullyConnected,
                                          evalFullyConnected};

}  // namespace loupe::reference
