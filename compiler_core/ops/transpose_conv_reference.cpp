// TRANSPOSE_CONV, bit-exact with TFLite Micro's reference kernels: a
// "scatter" loop that adds each input element's contribution to the outputs
// it touches, then bias, requantisation and clamping per output element.
// Variants: float32; int8 activations with per-channel int8 weights and
// int32 bias; 16x8 (int16 activations, int8 weights, int64 accumulators and
// int64 or int16 bias). Inputs: (output_shape, weights, input, bias?).
#include <algorithm>
#include <limits>

#include "loupe/fixed_point.h"
#include "loupe/quantized_arith.h"
#include "ops/transpose_conv_plan.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

namespace {

constexpr std::size_t kOutputShapeSlot = 0;
constexpr std::size_t kFilterSlot = 1;
constexpr std::size_t kTransposeConvInputSlot = 2;
constexpr std::size_t kTransposeConvBiasSlot = 3;

// TFLite's ComputeOutSize for dilation 1.
int convolutionOutSize(ir::Padding padding, int imageSize, int filterSize, int stride) {
  if (stride == 0) return 0;
  return padding == ir::Padding::Same ? (imageSize + stride - 1) / stride
                                      : (imageSize + stride - filterSize) / stride;
}

}  // namespace

int transposeConvPadding(ir::Padding padding, int stride, int outputSize, int filterSize) {
  const int outSize = convolutionOutSize(padding, outputSize, filterSize, stride);
  const int total = (outSize - 1) * stride + filterSize - outputSize;
  return total > 0 ? total / 2 : 0;
}

TransposeConvPlan planTransposeConv(const ir::Tensor& input, const ir::Tensor& filter,
                                    const ir::Tensor& output, const ir::TransposeConvAttrs& attrs) {
  TransposeConvPlan plan;
  plan.padHeight =
      transposeConvPadding(attrs.padding, attrs.strideH, output.shape[1], filter.shape[1]);
  plan.padWidth =
      transposeConvPadding(attrs.padding, attrs.strideW, output.shape[2], filter.shape[2]);
  if (input.dtype == ir::DType::Float32) {
    const FloatRange range = floatActivationRange(attrs.activation);
    plan.floatActivationMin = range.min;
    plan.floatActivationMax = range.max;
    return plan;
  }
  // TFLite's PopulateConvolutionQuantizationParams: per-channel effective
  // scale input_scale * filter_scale / output_scale in double.
  const int channels = filter.shape[0];
  const auto& filterScales = filter.quantization.scales;
  for (int c = 0; c < channels; ++c) {
    const float filterScale = filterScales.size() > 1 ? filterScales[c] : filterScales[0];
    const double effective = static_cast<double>(input.quantization.scale()) *
                             static_cast<double>(filterScale) /
                             static_cast<double>(output.quantization.scale());
    std::int32_t multiplier;
    int shift;
    loupe_quantize_multiplier(effective, &multiplier, &shift);
    plan.outputMultipliers.push_back(multiplier);
    plan.outputShifts.push_back(shift);
  }
  plan.inputOffset = -input.quantization.zeroPoint();
  plan.outputOffset = output.quantization.zeroPoint();
  // TFLite's CalculateActivationRangeQuantized for the int8 or int16 output.
  const IntRange range = quantizedActivationRange(attrs.activation, output);
  plan.activationMin = range.min;
  plan.activationMax = range.max;
  return plan;
}

namespace {

bool allZero(const std::vector<std::int64_t>& values) {
  return std::all_of(values.begin(), values.end(), [](std::int64_t v) { return v == 0; });
}

std::optional<std::string> checkTransposeConv(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = checkArity(op, "TRANSPOSE_CONV", 3)) return problem;
  const auto* attrs = std::get_if<ir::TransposeConvAttrs>(&op.attributes);
  if (attrs == nullptr) return "TRANSPOSE_CONV has no transpose-convolution attributes";
  const ir::Tensor& filter = *graph.input(op, kFilterSlot);
  const ir::Tensor& input = *graph.input(op, kTransposeConvInputSlot);
  const ir::Tensor* bias = graph.input(op, kTransposeConvBiasSlot);
  const ir::Tensor& output = graph.output(op, 0);

  const bool isFloat = input.dtype == ir::DType::Float32 && filter.dtype == ir::DType::Float32 &&
                       output.dtype == ir::DType::Float32;
  const bool isInt8 = input.dtype == ir::DType::Int8 && filter.dtype == ir::DType::Int8 &&
                      output.dtype == ir::DType::Int8;
  const bool is16x8 = input.dtype == ir::DType::Int16 && filter.dtype == ir::DType::Int8 &&
                      output.dtype == ir::DType::Int16;
  if (!isFloat && !isInt8 && !is16x8) {
    return "input/weights/output dtypes " + describeDtype(input.dtype) + "/" +
           describeDtype(filter.dtype) + "/" + describeDtype(output.dtype) +
           " are not supported (expected float32/float32/float32, int8/int8/int8 or "
           "int16/int8/int16)";
  }
  if (input.shape.size() != 4 || filter.shape.size() != 4 || output.shape.size() != 4) {
    return "input " + ir::shapeToString(input.shape) + ", weights " +
           ir::shapeToString(filter.shape) + " and output " + ir::shapeToString(output.shape) +
           " must all have four dimensions";
  }
  if (input.shape[0] != output.shape[0] || input.shape[3] != filter.shape[3] ||
      filter.shape[0] != output.shape[3]) {
    return "shapes do not match: input " + ir::shapeToString(input.shape) +
           " [N,H,W,Cin], weights " + ir::shapeToString(filter.shape) +
           " [Cout,KH,KW,Cin], output " + ir::shapeToString(output.shape) + " [N,OH,OW,Cout]";
  }
  if (attrs->strideW < 1 || attrs->strideH < 1) {
    return "strides " + std::to_string(attrs->strideH) + "x" + std::to_string(attrs->strideW) +
           " must be positive";
  }
  if (auto reason = unsupportedActivation(attrs->activation)) return reason;
  const ir::Tensor& shapeOperand = *graph.input(op, kOutputShapeSlot);
  if (auto values = constantIntegers(shapeOperand)) {
    if (ir::Shape(values->begin(), values->end()) != output.shape) {
      return "output_shape operand says " +
             ir::shapeToString(ir::Shape(values->begin(), values->end())) + " but output '" +
             output.name + "' has shape " + ir::shapeToString(output.shape);
    }
  }

  const std::int64_t outChannels = filter.shape[0];
  if (bias != nullptr) {
    const ir::DType expected = isFloat  ? ir::DType::Float32
                               : isInt8 ? ir::DType::Int32
                                        : ir::DType::Int64;
    const bool ok = bias->dtype == expected || (is16x8 && bias->dtype == ir::DType::Int16);
    if (!ok) {
      return "bias '" + bias->name + "' has dtype " + describeDtype(bias->dtype) + " (expected " +
             describeDtype(expected) + (is16x8 ? " or int16" : "") + ")";
    }
    if (bias->elementCount() != outChannels) {
      return "bias '" + bias->name + "' has " + std::to_string(bias->elementCount()) +
             " elements (expected one per output channel: " + std::to_string(outChannels) + ")";
    }
  }
  if (!isFloat) {
    const auto& fq = filter.quantization;
    if (!input.quantization.isQuantized() || !output.quantization.isQuantized() ||
        !fq.isQuantized()) {
      return "quantised TRANSPOSE_CONV needs scales on input, weights and output";
    }
    if (fq.scales.size() != 1 && static_cast<std::int64_t>(fq.scales.size()) != outChannels) {
      return "weights have " + std::to_string(fq.scales.size()) +
             " scales (expected 1 or one per output channel: " + std::to_string(outChannels) + ")";
    }
    if (fq.isPerChannel() && fq.quantizedDimension != 0) {
      return "weights are quantised along dimension " + std::to_string(fq.quantizedDimension) +
             " (expected 0, the output channels)";
    }
    if (!allZero(fq.zeroPoints)) {
      return "weights have a non-zero zero point (TFLite Micro assumes symmetric weights)";
    }
    if (is16x8 && (input.quantization.zeroPoint() != 0 || output.quantization.zeroPoint() != 0)) {
      return "16x8 TRANSPOSE_CONV needs zero points of 0 on input and output (found " +
             std::to_string(input.quantization.zeroPoint()) + " and " +
             std::to_string(output.quantization.zeroPoint()) + ")";
    }
  }
  return std::nullopt;
}

struct ConvGeometry {
  int batches, inHeight, inWidth, inDepth;
  int filterHeight, filterWidth;
  int outHeight, outWidth, outDepth;
  int strideH, strideW, padH, padW;
};

ConvGeometry geometry(const ir::Tensor& input, const ir::Tensor& filter, const ir::Tensor& output,
                      const ir::TransposeConvAttrs& attrs, const TransposeConvPlan& plan) {
  return {input.shape[0],  input.shape[1],  input.shape[2],  input.shape[3],  filter.shape[1],
          filter.shape[2], output.shape[1], output.shape[2], output.shape[3], attrs.strideH,
          attrs.strideW,   plan.padHeight,  plan.padWidth};
}

// The scatter loop of TFLite's reference TransposeConv: for every input
// element in NHWC order, every filter tap and output channel it feeds,
// accumulator += contribution(input, filter).
template <typename In, typename Acc, typename Contribution>
void scatter(const ConvGeometry& g, const In* input, const std::int8_t* filter, Acc* acc,
             Contribution contribution) {
  (void)filter;
  for (int b = 0; b < g.batches; ++b) {
    for (int iy = 0; iy < g.inHeight; ++iy) {
      for (int ix = 0; ix < g.inWidth; ++ix) {
        for (int ic = 0; ic < g.inDepth; ++ic) {
          const int originX = ix * g.strideW - g.padW;
          const int originY = iy * g.strideH - g.padH;
          const auto inputValue = input[((b * g.inHeight + iy) * g.inWidth + ix) * g.inDepth + ic];
          for (int fy = 0; fy < g.filterHeight; ++fy) {
            for (int fx = 0; fx < g.filterWidth; ++fx) {
              for (int oc = 0; oc < g.outDepth; ++oc) {
                const int ox = originX + fx;
                const int oy = originY + fy;
                if (ox < 0 || ox >= g.outWidth || oy < 0 || oy >= g.outHeight) continue;
                const int filterIndex =
                    ((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.inDepth + ic;
                const int outIndex = ((b * g.outHeight + oy) * g.outWidth + ox) * g.outDepth + oc;
                acc[outIndex] += contribution(inputValue, filterIndex);
              }
            }
          }
        }
      }
    }
  }
}

void evalTransposeConv(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::TransposeConvAttrs>(op.attributes);
  const ir::Tensor& filter = graph.tensor(op.inputs[kFilterSlot]);
  const ir::Tensor& input = graph.tensor(op.inputs[kTransposeConvInputSlot]);
  const ir::Tensor* bias = graph.input(op, kTransposeConvBiasSlot);
  const ir::Tensor& output = graph.output(op, 0);
  const TransposeConvPlan plan = planTransposeConv(input, filter, output, attrs);
  const ConvGeometry g = geometry(input, filter, output, attrs, plan);
  const auto count = static_cast<std::size_t>(output.elementCount());
  const int filterTensor = op.inputs[kFilterSlot];
  const int inputTensor = op.inputs[kTransposeConvInputSlot];
  const int outputTensor = op.outputs[0];

  if (input.dtype == ir::DType::Float32) {
    const float* weights = store.data<float>(filterTensor);
    float* out = store.mutableData<float>(outputTensor);
    std::fill(out, out + count, 0.0f);
    scatter(g, store.data<float>(inputTensor), nullptr, out,
            [&](float value, int filterIndex) { return value * weights[filterIndex]; });
    const float* biasData = bias ? store.data<float>(bias->index) : nullptr;
    for (std::size_t i = 0; i < count; ++i) {
      float acc = out[i];
      if (biasData) acc += biasData[i % static_cast<std::size_t>(g.outDepth)];
      out[i] = std::min(std::max(acc, plan.floatActivationMin), plan.floatActivationMax);
    }
    return;
  }

  const std::int8_t* weights = store.data<std::int8_t>(filterTensor);
  if (input.dtype == ir::DType::Int8) {
    std::vector<std::int32_t> acc(count, 0);
    const std::int32_t inputOffset = plan.inputOffset;
    scatter(g, store.data<std::int8_t>(inputTensor), weights, acc.data(),
            [&](std::int8_t value, int filterIndex) {
              return (static_cast<std::int32_t>(value) + inputOffset) * weights[filterIndex];
            });
    const std::int32_t* biasData = bias ? store.data<std::int32_t>(bias->index) : nullptr;
    std::int8_t* out = store.mutableData<std::int8_t>(outputTensor);
    for (std::size_t i = 0; i < count; ++i) {
      const auto oc = i % static_cast<std::size_t>(g.outDepth);
      std::int32_t value = acc[i];
      if (biasData) value += biasData[oc];
      out[i] = static_cast<std::int8_t>(
          loupe_requantize_acc_i32(value, plan.outputMultipliers[oc], plan.outputShifts[oc],
                                   plan.outputOffset, plan.activationMin, plan.activationMax));
    }
    return;
  }

  // 16x8: int64 accumulators; an int16 bias is widened first, as TFLite Micro
  // does for older models.
  std::vector<std::int64_t> acc(count, 0);
  scatter(g, store.data<std::int16_t>(inputTensor), weights, acc.data(),
          [&](std::int16_t value, int filterIndex) {
            return static_cast<std::int64_t>(static_cast<std::int32_t>(value) *
                                             static_cast<std::int32_t>(weights[filterIndex]));
          });
  std::vector<std::int64_t> biasValues;
  if (bias != nullptr) {
    for (std::int64_t c = 0; c < g.outDepth; ++c) {
      biasValues.push_back(bias->dtype == ir::DType::Int16
                               ? store.data<std::int16_t>(bias->index)[c]
                               : store.data<std::int64_t>(bias->index)[c]);
    }
  }
  std::int16_t* out = store.mutableData<std::int16_t>(outputTensor);
  for (std::size_t i = 0; i < count; ++i) {
    const auto oc = i % static_cast<std::size_t>(g.outDepth);
    std::int64_t value = acc[i];
    if (!biasValues.empty()) value += biasValues[oc];
    out[i] = static_cast<std::int16_t>(
        loupe_requantize_acc_i64(value, plan.outputMultipliers[oc], plan.outputShifts[oc],
                                 plan.activationMin, plan.activationMax));
  }
}

}  // namespace

extern const Kernel kTransposeConvKernel{ir::OpType::TransposeConv, checkTransposeConv,
                                         evalTransposeConv};

}  // namespace loupe::reference
