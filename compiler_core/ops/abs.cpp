// ABS as TFLite Micro computes it: float32 and plain int16 take |x|; int8
// and quantised int16 take |x - input zero point|, rescaled by
// input scale / output scale when the scales differ, plus the output zero
// point, clamped to the type. 8-bit inputs lower to a 256-entry table of the
// same function the reference runs.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "loupe/fixed_point.h"
#include "lowering/elementwise_unary.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

struct AbsParams {
  std::int32_t inputZeroPoint = 0, outputZeroPoint = 0;
  bool rescale = false;
  reference::QuantizedMultiplier multiplier;
  std::int32_t min = 0, max = 0;
};

bool isQuantized(const ir::Tensor& tensor) {
  return tensor.dtype == ir::DType::Int8 ||
         (tensor.dtype == ir::DType::Int16 && tensor.quantization.isQuantized());
}

AbsParams absParams(const ir::Tensor& input, const ir::Tensor& output) {
  AbsParams p;
  p.inputZeroPoint = static_cast<std::int32_t>(input.quantization.zeroPoint());
  p.outputZeroPoint = static_cast<std::int32_t>(output.quantization.zeroPoint());
  const float inputScale = input.quantization.scale(), outputScale = output.quantization.scale();
  p.rescale = inputScale != outputScale;
  if (p.rescale)
    p.multiplier = reference::quantizeMultiplier(static_cast<double>(inputScale / outputScale));
  const bool int8 = input.dtype == ir::DType::Int8;
  p.min = int8 ? -128 : -32768;
  p.max = int8 ? 127 : 32767;
  return p;
}

std::int32_t absQuantized(std::int32_t x, const AbsParams& p) {
  const std::int32_t value = std::abs(x - p.inputZeroPoint);
  const std::int32_t scaled = p.rescale ? loupe_multiply_by_quantized_multiplier(
                                              value, p.multiplier.multiplier, p.multiplier.shift)
                                        : value;
  return std::clamp(scaled + p.outputZeroPoint, p.min, p.max);
}

std::optional<std::string> checkAbs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  const ir::Tensor& output = graph.output(op, 0);
  if (input->dtype != ir::DType::Float32 && input->dtype != ir::DType::Int8 &&
      input->dtype != ir::DType::Int16) {
    return "input dtype " + reference::describeDtype(input->dtype) +
           " is not supported (expected float32, int8 or int16)";
  }
  if (output.dtype != input->dtype || output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's type and shape";
  }
  if (isQuantized(*input)) {
    if (auto problem = reference::checkPerTensorQuantization("input", *input)) return problem;
    if (auto problem = reference::checkPerTensorQuantization("output", output)) return problem;
    if (input->dtype == ir::DType::Int16 &&
        (input->quantization.zeroPoint() != 0 || output.quantization.zeroPoint() != 0)) {
      return "quantised int16 input and output must have zero point 0";
    }
  }
  return std::nullopt;
}

void evalAbs(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const std::int64_t count = input.elementCount();
  if (input.dtype == ir::DType::Float32) {
    const float* in = store.data<float>(op.inputs[0]);
    float* out = store.mutableData<float>(op.outputs[0]);
    for (std::int64_t i = 0; i < count; ++i) out[i] = std::fabs(in[i]);
  } else if (input.dtype == ir::DType::Int8) {
    const AbsParams p = absParams(input, output);
    const auto* in = store.data<std::int8_t>(op.inputs[0]);
    auto* out = store.mutableData<std::int8_t>(op.outputs[0]);
    for (std::int64_t i = 0; i < count; ++i)
      out[i] = static_cast<std::int8_t>(absQuantized(in[i], p));
  } else {
    const auto* in = store.data<std::int16_t>(op.inputs[0]);
    auto* out = store.mutableData<std::int16_t>(op.outputs[0]);
    if (!isQuantized(input)) {
      for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<std::int16_t>(std::abs(in[i]));
      return;
    }
    const AbsParams p = absParams(input, output);
    for (std::int64_t i = 0; i < count; ++i)
      out[i] = static_cast<std::int16_t>(absQuantized(in[i], p));
  }
}

tir::Expr absOf(const tir::Expr& v) {
  return tir::select(v < tir::intImm(0), tir::intImm(0) - v, v);
}

tir::PrimFunc lowerAbs(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  lowering::UnaryElementFunction f;
  if (input.dtype == ir::DType::Float32) {
    // |x| with fabsf's sign: -0.0 gives +0.0 (0 - -0 = +0).
    f.perElement = [](const tir::Expr& x) {
      return tir::select(x <= tir::floatImm(0.0), tir::floatImm(0.0) - x, x);
    };
  } else if (!isQuantized(input)) {
    f.perElement = [](const tir::Expr& x) { return absOf(tir::cast(tir::ScalarType::Int32, x)); };
  } else {
    const AbsParams p = absParams(input, graph.output(op, 0));
    f.atCompileTime = [p](std::int32_t x) { return static_cast<double>(absQuantized(x, p)); };
    f.perElement = [p](const tir::Expr& x) {
      tir::Expr value = absOf(tir::cast(tir::ScalarType::Int32, x) - tir::intImm(p.inputZeroPoint));
      if (p.rescale) {
        value = tir::callIntrinsic(
            "loupe.multiply_by_quantized_multiplier", tir::ScalarType::Int32,
            {value, tir::intImm(p.multiplier.multiplier), tir::intImm(p.multiplier.shift)});
      }
      return tir::callIntrinsic(
          "loupe.clamp_i32", tir::ScalarType::Int32,
          {value + tir::intImm(p.outputZeroPoint), tir::intImm(p.min), tir::intImm(p.max)});
    };
  }
  return lowering::lowerElementwiseUnary(graph, op, functionName, f);
}

const reference::Kernel kAbsKernel{ir::OpType::Abs, checkAbs, evalAbs};

}  // namespace

extern const OperatorDefinition kAbsDefinition{
    .type = ir::OpType::Abs,
    .dtypes = "float32; int8 and int16, quantised or not",
    .import = {.optionsType = optionsTypeOf<tflite::AbsOptions>(), .maxVersion = 5},
    .shape = sameAsInput,
    .kernel = &kAbsKernel,
    .lower = lowerAbs,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
