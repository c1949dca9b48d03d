// CONV_2D: NHWC input, OHWI filter, optional bias, SAME/VALID or explicit padding with
// strides and dilation, grouped when the filter has fewer input channels than
// the input. Follows TFLite Micro's reference ConvPerChannel kernels:
//   float32   float accumulation in filter order, bias added last, clamp;
//   int8      int32 accumulator of filter * (input - input_zero_point), per-
//             channel requantisation, output zero point, clamp;
//   16x8      int16 activations, int8 filter: no zero points; the accumulator
//             is int32 with an int32 bias, int64 with an int64 bias or none.
#include <cstdint>
#include <type_traits>

#include "ops/conv_common.h"
#include "reference/kernel.h"

namespace loupe::reference {

namespace {

struct ConvShape {
  int batches = 0, inHeight = 0, inWidth = 0, inDepth = 0;
  int filterHeight = 0, filterWidth = 0, filterDepth = 0;
  int outHeight = 0, outWidth = 0, outDepth = 0;
  int strideHeight = 1, strideWidth = 1, dilationHeight = 1, dilationWidth = 1;
  int padHeight = 0, padWidth = 0;
};

ConvShape convShape(const ir::Tensor& input, const ir::Tensor& filter, const ir::Tensor& output,
                    const ir::Conv2DAttrs& attrs) {
  ConvShape s;
  s.batches = input.shape[0];
  s.inHeight = input.shape[1];
  s.inWidth = input.shape[2];
  s.inDepth = input.shape[3];
  s.outDepth = filter.shape[0];
  s.filterHeight = filter.shape[1];
  s.filterWidth = filter.shape[2];
  s.filterDepth = filter.shape[3];
  s.outHeight = output.shape[1];
  s.outWidth = output.shape[2];
  s.strideHeight = attrs.strideH;
  s.strideWidth = attrs.strideW;
  s.dilationHeight = attrs.dilationH;
  s.dilationWidth = attrs.dilationW;
  const WindowGeometry g =
      windowGeometry(attrs, s.inHeight, s.inWidth, s.filterHeight, s.filterWidth);
  s.padHeight = g.padHeight;
  s.padWidth = g.padWidth;
  return s;
}

// The convolution loop nest in TFLite's order. Acc accumulates
// filter * (input + inputOffset) over the window (points outside the input
// are skipped: zero padding); finish(outChannel, acc) gives the stored value.
template <typename Acc, typename In, typename Filter, typename Out, typename Finish>
void convolve(const ConvShape& s, const In* input, const Filter* filter, Acc inputOffset,
              Out* output, Finish finish) {
  const int groups = s.inDepth / s.filterDepth;
  const int filtersPerGroup = s.outDepth / groups;
  for (int b = 0; b < s.batches; ++b) {
    for (int outY = 0; outY < s.outHeight; ++outY) {
      const int inYOrigin = outY * s.strideHeight - s.padHeight;
      for (int outX = 0; outX < s.outWidth; ++outX) {
        const int inXOrigin = outX * s.strideWidth - s.padWidth;
        for (int oc = 0; oc < s.outDepth; ++oc) {
          const int group = oc / filtersPerGroup;
          Acc acc = 0;
          for (int fy = 0; fy < s.filterHeight; ++fy) {
            const int inY = inYOrigin + s.dilationHeight * fy;
            for (int fx = 0; fx < s.filterWidth; ++fx) {
              const int inX = inXOrigin + s.dilationWidth * fx;
              if (inX < 0 || inX >= s.inWidth || inY < 0 || inY >= s.inHeight) continue;
              const std::int64_t inBase =
                  ((static_cast<std::int64_t>(b) * s.inHeight + inY) * s.inWidth + inX) *
                      s.inDepth +
                  static_cast<std::int64_t>(group) * s.filterDepth;
              const std::int64_t filterBase =
                  ((static_cast<std::int64_t>(oc) * s.filterHeight + fy) * s.filterWidth + fx) *
                  s.filterDepth;
              for (int ic = 0; ic < s.filterDepth; ++ic) {
                if constexpr (std::is_floating_point_v<Acc>) {
                  acc += input[inBase + ic] * filter[filterBase + ic];
                } else {
                  acc += static_cast<Acc>(filter[filterBase + ic]) *
                         (static_cast<Acc>(input[inBase + ic]) + inputOffset);
                }
              }
            }
          }
          const std::int64_t outIndex =
              ((static_cast<std::int64_t>(b) * s.outHeight + outY) * s.outWidth + outX) *
                  s.outDepth +
              oc;
          output[outIndex] = finish(oc, acc);
        }
      }
    }
  }
}

std::optional<std::string> checkConv2D(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = attributesOf<ir::Conv2DAttrs>(op);
  if (attrs == nullptr) return "CONV_2D operator carries no convolution attributes";
  if (auto problem = checkConvOperands(graph, op, *attrs, {ir::DType::Int64, ir::DType::Int32})) {
    return problem;
  }
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const int outChannels = filter.shape[0];
  const int filterDepth = filter.shape[3];
  if (filterDepth <= 0 || input.shape[3] % filterDepth != 0) {
    return "input depth " + std::to_string(input.shape[3]) +
           " is not a multiple of the filter depth " + std::to_string(filterDepth);
  }
  const int groups = input.shape[3] / filterDepth;
  if (outChannels % groups != 0) {
    return "the " + std::to_string(outChannels) + " output channels do not split into " +
           std::to_string(groups) + " groups";
  }
  return checkConvOutput(graph, op, *attrs, outChannels, 0);
}

void evalConv2D(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  const ConvShape s = convShape(input, filter, output, attrs);
  const int outIndex = op.outputs[0];

  if (input.dtype == ir::DType::Float32) {
    const float* biasData = bias ? store.data<float>(op.inputs[2]) : nullptr;
    convolve<float>(s, store.data<float>(op.inputs[0]), store.data<float>(op.inputs[1]), 0.0f,
                    store.mutableData<float>(outIndex),
                    floatConvFinish(biasData, floatActivationRange(attrs.activation)));
    return;
  }

  const auto multipliers =
      perChannelMultipliers(input.quantization.scale(), filter.quantization.scales,
                            output.quantization.scale(), s.outDepth);
  const IntRange range = quantizedActivationRange(attrs.activation, output);
  const auto* filterData = store.data<std::int8_t>(op.inputs[1]);

  if (input.dtype == ir::DType::Int8) {
    const std::int32_t* biasData = bias ? store.data<std::int32_t>(op.inputs[2]) : nullptr;
    convolve<std::int64_t>(s, store.data<std::int8_t>(op.inputs[0]), filterData,
                           -static_cast<std::int64_t>(input.quantization.zeroPoint()),
                           store.mutableData<std::int8_t>(outIndex),
                           int32ConvFinish<std::int8_t>(biasData, multipliers,
                                                        output.quantization.zeroPoint(), range));
    return;
  }

  // 16x8: TFLite Micro applies no input or output zero point here.
  const auto* in16 = store.data<std::int16_t>(op.inputs[0]);
  auto* out16 = store.mutableData<std::int16_t>(outIndex);
  if (requantizesInt64Sum(input, bias)) {
    const std::int64_t* biasData = bias ? store.data<std::int64_t>(op.inputs[2]) : nullptr;
    convolve<std::int64_t>(s, in16, filterData, std::int64_t{0}, out16,
                           int64ConvFinish(biasData, multipliers, range));
    return;
  }
  convolve<std::int64_t>(
      s, in16, filterData, std::int64_t{0}, out16,
      int32ConvFinish<std::int16_t>(store.data<std::int32_t>(op.inputs[2]), multipliers, 0, range));
}

}  // namespace

extern const Kernel kConv2DKernel{ir::OpType::Conv2D, checkConv2D, evalConv2D};

}  // namespace loupe::reference
