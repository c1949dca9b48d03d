// QUANTIZE: float32 to int8/int16 (round half away from zero, clamp), and the
// integer requantisations TFLite Micro supports (new scale and zero point
// through a fixed-point multiplier), per-tensor only as in TFLM.
#include <limits>

#include "loupe/elementwise_unary.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/unary_kernel_support.h"

namespace loupe::reference {

namespace {

using ir::DType;

std::optional<std::string> checkQuantize(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkUnaryOperands(graph, op)) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = checkDTypePair(op, input, output,
                                    {{DType::Float32, DType::Int8},
                                     {DType::Float32, DType::Int16},
                                     {DType::Int8, DType::Int8},
                                     {DType::Int8, DType::UInt8},
                                     {DType::Int8, DType::Int16},
                                     {DType::Int8, DType::Int32},
                                     {DType::UInt8, DType::Int8},
                                     {DType::Int16, DType::Int8},
                                     {DType::Int16, DType::Int16},
                                     {DType::Int16, DType::Int32},
                                     {DType::Int32, DType::Int8},
                                     {DType::Int32, DType::Int16}})) {
    return problem;
  }
  if (auto problem = checkPerTensorQuantization("output", output)) return problem;
  if (input.dtype == DType::Float32) return std::nullopt;
  return checkPerTensorQuantization("input", input);
}

template <typename Out>
void quantizeFloat(const ir::Operator& op, TensorStore& store, std::int64_t count, float scale,
                   std::int32_t zeroPoint) {
  mapElements<float, Out>(op, store, count, [&](float x) {
    return static_cast<Out>(loupe_quantize_f32(x, scale, zeroPoint, std::numeric_limits<Out>::min(),
                                               std::numeric_limits<Out>::max()));
  });
}

template <typename In, typename Out>
void requantize(const ir::Operator& op, TensorStore& store, std::int64_t count,
                const RequantizeParams& p) {
  mapElements<In, Out>(op, store, count, [&](In x) {
    return static_cast<Out>(loupe_requantize(
        x, p.inputZeroPoint, p.requantize.multiplier, p.requantize.shift, p.outputZeroPoint,
        std::numeric_limits<Out>::min(), std::numeric_limits<Out>::max()));
  });
}

template <typename In>
void requantizeFrom(DType outputType, const ir::Operator& op, TensorStore& store,
                    std::int64_t count, const RequantizeParams& p) {
  switch (outputType) {
    case DType::Int8:
      return requantize<In, std::int8_t>(op, store, count, p);
    case DType::UInt8:
      return requantize<In, std::uint8_t>(op, store, count, p);
    case DType::Int16:
      return requantize<In, std::int16_t>(op, store, count, p);
    default:
      return requantize<In, std::int32_t>(op, store, count, p);
  }
}

void evalQuantize(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const std::int64_t count = input.elementCount();
  const float outputScale = output.quantization.scale();
  const std::int32_t outputZeroPoint = output.quantization.zeroPoint();
  if (input.dtype == DType::Float32) {
    if (output.dtype == DType::Int16) {
      quantizeFloat<std::int16_t>(op, store, count, outputScale, outputZeroPoint);
    } else {
      quantizeFloat<std::int8_t>(op, store, count, outputScale, outputZeroPoint);
    }
    return;
  }
  const RequantizeParams params = requantizeParams(
      input.quantization.scale(), input.quantization.zeroPoint(), outputScale, outputZeroPoint);
  switch (input.dtype) {
    case DType::Int8:
      return requantizeFrom<std::int8_t>(output.dtype, op, store, count, params);
    case DType::UInt8:
      return requantizeFrom<std::uint8_t>(output.dtype, op, store, count, params);
    case DType::Int16:
      return requantizeFrom<std::int16_t>(output.dtype, op, store, count, params);
    default:
      return requantizeFrom<std::int32_t>(output.dtype, op, store, count, params);
  }
}

}  // namespace

extern const Kernel kQuantizeKernel{ir::OpType::Quantize, checkQuantize, evalQuantize};

}  // namespace loupe::reference
