// PRELU: x where x >= 0, else alpha * x, with alpha broadcast against the
// input (NumPy rules; the output is their broadcast shape), as TFLite Micro
// computes it. float32 takes alpha as float32; int8 and int16 take an int8
// alpha and requantise twice, as TFLM's PreluParams do: x - input zero point
// goes to the output scale by input_scale / output_scale when it is not
// negative, and (x - input zero point) * (alpha - alpha zero point) by
// input_scale * alpha_scale / output_scale when it is, both in double; then
// the output zero point is added and the result clamped to the type. TFLM's
// float kernel handles at most four dimensions, its integer one eight.
#include <algorithm>
#include <limits>

#include "loupe/fixed_point.h"
#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/operator_definition.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

struct PreluParams {
  std::int32_t inputZeroPoint = 0, alphaZeroPoint = 0, outputZeroPoint = 0;
  reference::QuantizedMultiplier identity;  // x >= 0
  reference::QuantizedMultiplier alpha;     // x < 0, times alpha
  std::int32_t min = 0, max = 0;
};

// TFLM's CalculatePreluParams.
PreluParams preluParams(const ir::Tensor& input, const ir::Tensor& alpha,
                        const ir::Tensor& output) {
  PreluParams p;
  p.inputZeroPoint = static_cast<std::int32_t>(input.quantization.zeroPoint());
  p.alphaZeroPoint = static_cast<std::int32_t>(alpha.quantization.zeroPoint());
  p.outputZeroPoint = static_cast<std::int32_t>(output.quantization.zeroPoint());
  const auto inputScale = static_cast<double>(input.quantization.scale());
  const auto alphaScale = static_cast<double>(alpha.quantization.scale());
  const auto outputScale = static_cast<double>(output.quantization.scale());
  p.identity = reference::quantizeMultiplier(inputScale / outputScale);
  p.alpha = reference::quantizeMultiplier(inputScale * alphaScale / outputScale);
  const bool int8 = input.dtype == ir::DType::Int8;
  p.min = int8 ? std::numeric_limits<std::int8_t>::min() : std::numeric_limits<std::int16_t>::min();
  p.max = int8 ? std::numeric_limits<std::int8_t>::max() : std::numeric_limits<std::int16_t>::max();
  return p;
}

std::int32_t preluQuantized(std::int32_t x, std::int32_t alpha, const PreluParams& p) {
  const std::int32_t value = x - p.inputZeroPoint;
  const std::int32_t scaled =
      value >= 0
          ? loupe_multiply_by_quantized_multiplier(value, p.identity.multiplier, p.identity.shift)
          : loupe_multiply_by_quantized_multiplier(value * (alpha - p.alphaZeroPoint),
                                                   p.alpha.multiplier, p.alpha.shift);
  return std::clamp(scaled + p.outputZeroPoint, p.min, p.max);
}

std::optional<std::string> checkPrelu(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* alpha = graph.input(op, 1);
  if (input == nullptr || alpha == nullptr) return "needs an input and alpha";
  const ir::Tensor& output = graph.output(op, 0);
  const bool isFloat = input->dtype == ir::DType::Float32;
  if (!isFloat && input->dtype != ir::DType::Int8 && input->dtype != ir::DType::Int16) {
    return "input dtype " + reference::describeDtype(input->dtype) +
           " is not supported (expected float32, int8 or int16)";
  }
  if (output.dtype != input->dtype) {
    return "output " + tensorText(output) + " must have the input's element type";
  }
  const ir::DType alphaType = isFloat ? ir::DType::Float32 : ir::DType::Int8;
  if (alpha->dtype != alphaType) {
    return "alpha " + tensorText(*alpha) + " must be " + reference::describeDtype(alphaType) +
           " when the input is " + reference::describeDtype(input->dtype);
  }
  const auto shape = reference::broadcastShape(input->shape, alpha->shape);
  if (!shape || *shape != output.shape) {
    return "output " + tensorText(output) + " is not the broadcast of " + tensorText(*input) +
           " and " + tensorText(*alpha);
  }
  const std::size_t maxRank = isFloat ? 4 : 8;
  if (output.shape.size() > maxRank) {
    return "TFLite Micro's " + reference::describeDtype(input->dtype) + " PRELU handles at most " +
           std::to_string(maxRank) + " dimensions, found " + tensorText(output);
  }
  if (!isFloat) {
    if (auto problem = reference::checkPerTensorQuantization("input", *input)) return problem;
    if (auto problem = reference::checkPerTensorQuantization("alpha", *alpha)) return problem;
    if (auto problem = reference::checkPerTensorQuantization("output", output)) return problem;
  }
  return std::nullopt;
}

template <typename T>
void evalPreluQuantized(const ir::Graph& graph, const ir::Operator& op,
                        reference::TensorStore& store) {
  const PreluParams p = preluParams(*graph.input(op, 0), *graph.input(op, 1), graph.output(op, 0));
  const T* in = store.data<T>(op.inputs[0]);
  const auto* alpha = store.data<std::int8_t>(op.inputs[1]);
  T* out = store.mutableData<T>(op.outputs[0]);
  reference::forEachBroadcastElement(graph.output(op, 0).shape, graph.tensor(op.inputs[0]).shape,
                                     graph.tensor(op.inputs[1]).shape,
                                     [&](std::int64_t o, std::int64_t i, std::int64_t a) {
                                       out[o] = static_cast<T>(preluQuantized(in[i], alpha[a], p));
                                     });
}

void evalPrelu(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  switch (graph.tensor(op.inputs[0]).dtype) {
    case ir::DType::Float32: {
      const float* in = store.data<float>(op.inputs[0]);
      const float* alpha = store.data<float>(op.inputs[1]);
      float* out = store.mutableData<float>(op.outputs[0]);
      reference::forEachBroadcastElement(
          graph.output(op, 0).shape, graph.tensor(op.inputs[0]).shape,
          graph.tensor(op.inputs[1]).shape, [&](std::int64_t o, std::int64_t i, std::int64_t a) {
            out[o] = in[i] >= 0.0f ? in[i] : in[i] * alpha[a];
          });
      return;
    }
    case ir::DType::Int8:
      return evalPreluQuantized<std::int8_t>(graph, op, store);
    default:
      return evalPreluQuantized<std::int16_t>(graph, op, store);
  }
}

tir::Expr multiplyByQuantizedMultiplier(const tir::Expr& x,
                                        const reference::QuantizedMultiplier& m) {
  return tir::callIntrinsic("loupe.multiply_by_quantized_multiplier", tir::ScalarType::Int32,
                            {x, tir::intImm(m.multiplier), tir::intImm(m.shift)});
}

tir::PrimFunc lowerPrelu(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& alphaTensor = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer alpha = fb.input(op.inputs[1], "alpha");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const bool isFloat = input.dtype == ir::DType::Float32;
  const PreluParams p = isFloat ? PreluParams{} : preluParams(input, alphaTensor, output);
  const tir::Stmt body = broadcastLoops(
      output.shape, input.shape, alphaTensor.shape,
      [&](const tir::Expr& o, const tir::Expr& i, const tir::Expr& a) {
        if (isFloat) {
          const tir::Var x = tir::makeVar("x", tir::ScalarType::Float32);
          const tir::Expr v = tir::refVar(x);
          return tir::let(
              x, tir::load(in, i),
              tir::store(out, o, tir::select(v >= tir::floatImm(0.0), v, v * tir::load(alpha, a))));
        }
        // x - input zero point, requantised one way or the other.
        const tir::Var value = tir::makeVar("value");
        const tir::Expr v = tir::refVar(value);
        const tir::Expr alphaValue =
            tir::cast(tir::ScalarType::Int32, tir::load(alpha, a)) - tir::intImm(p.alphaZeroPoint);
        const tir::Expr scaled =
            tir::select(v >= tir::intImm(0), multiplyByQuantizedMultiplier(v, p.identity),
                        multiplyByQuantizedMultiplier(v * alphaValue, p.alpha));
        const tir::Expr clamped = tir::callIntrinsic(
            "loupe.clamp_i32", tir::ScalarType::Int32,
            {scaled + tir::intImm(p.outputZeroPoint), tir::intImm(p.min), tir::intImm(p.max)});
        return tir::let(
            value,
            tir::cast(tir::ScalarType::Int32, tir::load(in, i)) - tir::intImm(p.inputZeroPoint),
            tir::store(out, o, tir::cast(out->type, clamped)));
      });
  return fb.finish(body);
}

const reference::Kernel kPreluKernel{ir::OpType::Prelu, checkPrelu, evalPrelu};

std::optional<InferredOutput> preluShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op);
}

}  // namespace

extern const OperatorDefinition kPreluDefinition{
    .type = ir::OpType::Prelu,
    .dtypes = "float32 (float32 alpha); int8 and int16 (int8 alpha)",
    .import = {.minInputs = 2, .maxInputs = 2},
    .shape = preluShape,
    .kernel = &kPreluKernel,
    .lower = lowerPrelu,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
