// SVDF, bit-exact with TFLite Micro's reference (svdf_common.cc). Each
// invocation shifts the variable state left by one element, writes the
// feature projection of the new input into the newest memory column, then
// reduces state x weights_time over memory and rank and adds the bias.
// Variants: float32 (with fused activation); int8 input/weights_feature with
// int16 or int8 weights_time and state (TFLite Micro applies no activation in
// the integer variant, and so does this kernel).
#include <algorithm>
#include <cmath>
#include <limits>

#include "loupe/fixed_point.h"
#include "loupe/quantized_arith.h"
#include "loupe/recurrent_arith.h"
#include "ops/svdf_plan.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"

namespace loupe::reference {

namespace {

constexpr std::size_t kInputSlot = 0;
constexpr std::size_t kFeatureSlot = 1;
constexpr std::size_t kTimeSlot = 2;
constexpr std::size_t kBiasSlot = 3;
constexpr std::size_t kStateSlot = 4;

}  // namespace

SvdfPlan planSvdf(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = std::get_if<ir::SvdfAttrs>(&op.attributes);
  const ir::Tensor& input = *graph.input(op, kInputSlot);
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor& time = *graph.input(op, kTimeSlot);
  const ir::Tensor& state = *graph.input(op, kStateSlot);
  const ir::Tensor& output = graph.output(op, 0);
  SvdfPlan plan;
  plan.rank = attrs ? attrs->rank : 1;
  plan.batches = input.shape[0];
  plan.inputSize = input.shape[1];
  plan.filters = feature.shape[0];
  plan.units = plan.rank > 0 ? plan.filters / plan.rank : 0;
  plan.memory = time.shape[1];
  if (input.dtype == ir::DType::Int8) {
    // TFLite Micro forms both scales in float, then widens to double.
    const double featureScale = static_cast<double>(
        input.quantization.scale() * feature.quantization.scale() / state.quantization.scale());
    const double outputScale = static_cast<double>(
        state.quantization.scale() * time.quantization.scale() / output.quantization.scale());
    loupe_quantize_multiplier(featureScale, &plan.featureMultiplier, &plan.featureShift);
    loupe_quantize_multiplier(outputScale, &plan.outputMultiplier, &plan.outputShift);
    plan.inputZeroPoint = input.quantization.zeroPoint();
    plan.stateZeroPoint = state.quantization.zeroPoint();
    plan.outputZeroPoint = output.quantization.zeroPoint();
  }
  return plan;
}

namespace {

std::optional<std::string> expectShape(const char* role, const ir::Tensor& tensor,
                                       const ir::Shape& expected) {
  if (tensor.shape == expected) return std::nullopt;
  return std::string(role) + " '" + tensor.name + "' has shape " + ir::shapeToString(tensor.shape) +
         " (expected " + ir::shapeToString(expected) + ")";
}

}  // namespace

std::optional<std::string> checkSvdfStructure(const ir::Graph& graph, const ir::Operator& op) {
  if (op.inputs.size() != 5 || !hasInput(op, kInputSlot) || !hasInput(op, kFeatureSlot) ||
      !hasInput(op, kTimeSlot) || !hasInput(op, kStateSlot)) {
    return "SVDF needs five input slots (input, weights_feature, weights_time, optional bias, "
           "state); found " +
           std::to_string(op.inputs.size());
  }
  if (op.outputs.size() != 1) {
    return "SVDF expects 1 output, found " + std::to_string(op.outputs.size());
  }
  const auto* attrs = std::get_if<ir::SvdfAttrs>(&op.attributes);
  if (attrs == nullptr) return "SVDF has no SVDF attributes";
  const ir::Tensor& input = *graph.input(op, kInputSlot);
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor& time = *graph.input(op, kTimeSlot);
  const ir::Tensor* bias = graph.input(op, kBiasSlot);
  const ir::Tensor& state = *graph.input(op, kStateSlot);
  const ir::Tensor& output = graph.output(op, 0);

  if (input.shape.size() != 2) {
    return "input '" + input.name + "' has shape " + ir::shapeToString(input.shape) +
           " (expected [batches, input_size])";
  }
  if (feature.shape.size() != 2 || time.shape.size() != 2) {
    return "weights_feature " + ir::shapeToString(feature.shape) + " and weights_time " +
           ir::shapeToString(time.shape) + " must both have two dimensions";
  }
  const int rank = attrs->rank;
  const int filters = feature.shape[0];
  if (rank < 1 || filters % rank != 0) {
    return "weights_feature has " + std::to_string(filters) + " filters, not a multiple of rank " +
           std::to_string(rank);
  }
  const int batches = input.shape[0];
  const int units = filters / rank;
  const int memory = time.shape[1];
  if (auto p = expectShape("weights_feature", feature, {filters, input.shape[1]})) return p;
  if (auto p = expectShape("weights_time", time, {filters, memory})) return p;
  if (auto p = expectShape("state", state, {batches, memory * filters})) return p;
  if (auto p = expectShape("output", output, {batches, units})) return p;
  if (bias != nullptr && bias->elementCount() != units) {
    return "bias '" + bias->name + "' has " + std::to_string(bias->elementCount()) +
           " elements (expected " + std::to_string(units) + ", one per unit)";
  }
  if (!state.isVariable) {
    return "state '" + state.name + "' is not a variable tensor (SVDF updates it in place)";
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> checkSvdf(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkSvdfStructure(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, kInputSlot);
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor& time = *graph.input(op, kTimeSlot);
  const ir::Tensor* bias = graph.input(op, kBiasSlot);
  const ir::Tensor& state = *graph.input(op, kStateSlot);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype == ir::DType::Float32) {
    for (const ir::Tensor* t : {&feature, &time, &state, &output}) {
      if (t->dtype != ir::DType::Float32) {
        return "float32 SVDF needs float32 '" + t->name + "' (found " + describeDtype(t->dtype) +
               ")";
      }
    }
    if (bias != nullptr && bias->dtype != ir::DType::Float32) {
      return "bias '" + bias->name + "' has dtype " + describeDtype(bias->dtype) +
             " (expected float32)";
    }
    return std::nullopt;
  }
  if (input.dtype != ir::DType::Int8) {
    return "input dtype " + describeDtype(input.dtype) +
           " is not supported (expected float32 or int8)";
  }
  if (feature.dtype != ir::DType::Int8) {
    return "weights_feature has dtype " + describeDtype(feature.dtype) + " (expected int8)";
  }
  if (time.dtype != ir::DType::Int16 && time.dtype != ir::DType::Int8) {
    return "weights_time has dtype " + describeDtype(time.dtype) + " (expected int16 or int8)";
  }
  if (state.dtype != time.dtype) {
    return "state has dtype " + describeDtype(state.dtype) + " but weights_time has " +
           describeDtype(time.dtype) + " (TFLite Micro reads both as the same type)";
  }
  if (output.dtype != ir::DType::Int8) {
    return "output has dtype " + describeDtype(output.dtype) + " (expected int8)";
  }
  if (bias == nullptr) {
    return "int8 SVDF needs a bias tensor (TFLite Micro reads its scale)";
  }
  if (bias->dtype != ir::DType::Int32) {
    return "bias '" + bias->name + "' has dtype " + describeDtype(bias->dtype) +
           " (expected int32)";
  }
  for (const ir::Tensor* t : {&input, &feature, &time, &state, &output, bias}) {
    if (!t->quantization.isQuantized()) {
      return "int8 SVDF needs quantisation parameters on '" + t->name + "'";
    }
  }
  const double expectedBiasScale =
      static_cast<double>(state.quantization.scale() * time.quantization.scale());
  if (std::abs(static_cast<double>(bias->quantization.scale()) - expectedBiasScale) >= 1e-5) {
    return "bias scale " + std::to_string(bias->quantization.scale()) +
           " differs from state scale x weights_time scale " + std::to_string(expectedBiasScale);
  }
  return std::nullopt;
}

// The shared first step: every state value moves one place towards the
// start of the buffer (across filter boundaries, as TFLite Micro does; the
// value that crosses is overwritten by the new column right after).
template <typename T>
void shiftState(T* state, std::size_t count) {
  if (count > 1) std::copy(state + 1, state + count, state);
}

}  // namespace

int svdfActivationCode(ir::Activation activation) {
  switch (activation) {
    case ir::Activation::Relu:
      return LOUPE_SVDF_ACTIVATION_RELU;
    case ir::Activation::ReluN1To1:
      return LOUPE_SVDF_ACTIVATION_RELU_N1_TO_1;
    case ir::Activation::Relu6:
      return LOUPE_SVDF_ACTIVATION_RELU6;
    case ir::Activation::Tanh:
      return LOUPE_SVDF_ACTIVATION_TANH;
    case ir::Activation::SignBit:
      return LOUPE_SVDF_ACTIVATION_SIGN_BIT;
    case ir::Activation::None:
      break;
  }
  return LOUPE_SVDF_ACTIVATION_NONE;
}

namespace {

void evalFloatSvdf(const SvdfPlan& p, ir::Activation activation, const float* input,
                   const float* feature, const float* time, const float* bias, float* state,
                   float* output) {
  shiftState(state, static_cast<std::size_t>(p.batches) * p.filters * p.memory);
  for (int b = 0; b < p.batches; ++b) {
    const float* weights = feature;
    for (int f = 0; f < p.filters; ++f) {
      float dot = 0.0f;
      const float* x = input + b * p.inputSize;
      for (int i = 0; i < p.inputSize; ++i) dot += *weights++ * *x++;
      state[(b * p.filters + f) * p.memory + (p.memory - 1)] = dot;
    }
  }
  std::vector<float> scratch(static_cast<std::size_t>(p.batches) * p.filters);
  for (int b = 0; b < p.batches; ++b) {
    const float* w = time;
    const float* s = state + b * p.memory * p.filters;
    for (int f = 0; f < p.filters; ++f) {
      float sum = 0.0f;
      for (int m = 0; m < p.memory; ++m) sum += *w++ * *s++;
      scratch[b * p.filters + f] = sum;
    }
  }
  for (int b = 0; b < p.batches; ++b) {
    float* out = output + b * p.units;
    for (int u = 0; u < p.units; ++u) out[u] = bias ? bias[u] : 0.0f;
    const float* s = scratch.data() + b * p.filters;
    for (int u = 0; u < p.units; ++u) {
      for (int r = 0; r < p.rank; ++r) out[u] += *s++;
    }
    for (int u = 0; u < p.units; ++u) {
      out[u] = loupe_svdf_activation_f32(out[u], svdfActivationCode(activation));
    }
  }
}

template <typename T>
void evalIntegerSvdf(const SvdfPlan& p, const std::int8_t* input, const std::int8_t* feature,
                     const T* time, const std::int32_t* bias, T* state, std::int8_t* output) {
  shiftState(state, static_cast<std::size_t>(p.batches) * p.filters * p.memory);
  const std::int32_t stateMin = std::numeric_limits<T>::min();
  const std::int32_t stateMax = std::numeric_limits<T>::max();
  for (int b = 0; b < p.batches; ++b) {
    const std::int8_t* weights = feature;
    for (int f = 0; f < p.filters; ++f) {
      std::int32_t dot = 0;
      const std::int8_t* x = input + b * p.inputSize;
      for (int i = 0; i < p.inputSize; ++i) {
        dot += *weights++ * (*x++ - p.inputZeroPoint);
      }
      dot =
          loupe_requantize_acc_i32(dot, p.featureMultiplier, p.featureShift, 0, stateMin, stateMax);
      // The zero point is added after clamping and the sum narrowed to T, as
      // in TFLite Micro (only int8 state has a non-zero zero point).
      state[(b * p.filters + f) * p.memory + (p.memory - 1)] =
          static_cast<T>(p.stateZeroPoint + dot);
    }
  }
  std::vector<std::int32_t> scratch(static_cast<std::size_t>(p.batches) * p.filters);
  for (int b = 0; b < p.batches; ++b) {
    const T* w = time;
    const T* s = state + b * p.memory * p.filters;
    for (int f = 0; f < p.filters; ++f) {
      std::int32_t sum = 0;
      for (int m = 0; m < p.memory; ++m) sum += *w++ * (*s++ - p.stateZeroPoint);
      scratch[b * p.filters + f] = sum;
    }
  }
  for (int b = 0; b < p.batches; ++b) {
    const std::int32_t* s = scratch.data() + b * p.filters;
    for (int u = 0; u < p.units; ++u) {
      std::int32_t acc = bias ? bias[u] : 0;
      for (int r = 0; r < p.rank; ++r) acc += *s++;
      output[b * p.units + u] = static_cast<std::int8_t>(loupe_requantize_acc_i32(
          acc, p.outputMultiplier, p.outputShift, p.outputZeroPoint, -128, 127));
    }
  }
}

void evalSvdf(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const SvdfPlan plan = planSvdf(graph, op);
  const auto& attrs = std::get<ir::SvdfAttrs>(op.attributes);
  const ir::Tensor& input = graph.tensor(op.inputs[kInputSlot]);
  const ir::Tensor& time = graph.tensor(op.inputs[kTimeSlot]);
  const bool hasBias = hasInput(op, kBiasSlot);
  const int stateTensor = op.inputs[kStateSlot];
  if (input.dtype == ir::DType::Float32) {
    evalFloatSvdf(plan, attrs.activation, store.data<float>(op.inputs[kInputSlot]),
                  store.data<float>(op.inputs[kFeatureSlot]),
                  store.data<float>(op.inputs[kTimeSlot]),
                  hasBias ? store.data<float>(op.inputs[kBiasSlot]) : nullptr,
                  store.mutableData<float>(stateTensor), store.mutableData<float>(op.outputs[0]));
    return;
  }
  const auto* in = store.data<std::int8_t>(op.inputs[kInputSlot]);
  const auto* feature = store.data<std::int8_t>(op.inputs[kFeatureSlot]);
  const auto* bias = hasBias ? store.data<std::int32_t>(op.inputs[kBiasSlot]) : nullptr;
  auto* out = store.mutableData<std::int8_t>(op.outputs[0]);
  if (time.dtype == ir::DType::Int16) {
    evalIntegerSvdf(plan, in, feature, store.data<std::int16_t>(op.inputs[kTimeSlot]), bias,
                    store.mutableData<std::int16_t>(stateTensor), out);
  } else {
    evalIntegerSvdf(plan, in, feature, store.data<std::int8_t>(op.inputs[kTimeSlot]), bias,
                    store.mutableData<std::int8_t>(stateTensor), out);
  }
}

}  // namespace

extern const Kernel kSvdfKernel{ir::OpType::Svdf, checkSvdf, evalSvdf};

}  // namespace loupe::reference
