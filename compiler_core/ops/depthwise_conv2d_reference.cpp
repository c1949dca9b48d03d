// DEPTHWISE_CONV_2D: NHWC input, [1, H, W, in_channels * depth_multiplier]
// filter, optional bias; output channel m + c * depth_multiplier convolves
// input channel c. Follows TFLite Micro's reference DepthwiseConvPerChannel:
//   float32   float accumulation, bias added last, clamp;
//   int8      int32 accumulator of filter * (input - input_zero_point), per-
//             channel requantisation (quantised along dimension 3), clamp;
//   16x8      int16 activations, int8 filter, int64 bias and accumulator, no
//             zero points (TFLite Micro reads the bias as int64 only).
#include <cstdint>
#include <type_traits>

#include "ops/conv_common.h"
#include "reference/kernel.h"

namespace loupe::reference {

namespace {

struct DepthwiseShape {
  int batches = 0, inHeight = 0, inWidth = 0, inDepth = 0;
  int filterHeight = 0, filterWidth = 0;
  int outHeight = 0, outWidth = 0, outDepth = 0, depthMultiplier = 1;
  int strideHeight = 1, strideWidth = 1, dilationHeight = 1, dilationWidth = 1;
  int padHeight = 0, padWidth = 0;
};

DepthwiseShape depthwiseShape(const ir::Tensor& input, const ir::Tensor& filter,
                              const ir::Tensor& output, const ir::DepthwiseConv2DAttrs& attrs) {
  DepthwiseShape s;
  s.batches = input.shape[0];
  s.inHeight = input.shape[1];
  s.inWidth = input.shape[2];
  s.inDepth = input.shape[3];
  s.filterHeight = filter.shape[1];
  s.filterWidth = filter.shape[2];
  s.outHeight = output.shape[1];
  s.outWidth = output.shape[2];
  s.outDepth = output.shape[3];
  s.depthMultiplier = attrs.depthMultiplier;
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

// TFLite's depthwise loop nest; finish(outChannel, acc) gives the stored value.
template <typename Acc, typename In, typename Filter, typename Out, typename Finish>
void depthwise(const DepthwiseShape& s, const In* input, const Filter* filter, Acc inputOffset,
               Out* output, Finish finish) {
  for (int b = 0; b < s.batches; ++b) {
    for (int outY = 0; outY < s.outHeight; ++outY) {
      for (int outX = 0; outX < s.outWidth; ++outX) {
        for (int ic = 0; ic < s.inDepth; ++ic) {
          for (int m = 0; m < s.depthMultiplier; ++m) {
            const int oc = m + ic * s.depthMultiplier;
            const int inXOrigin = outX * s.strideWidth - s.padWidth;
            const int inYOrigin = outY * s.strideHeight - s.padHeight;
            Acc acc = 0;
            for (int fy = 0; fy < s.filterHeight; ++fy) {
              for (int fx = 0; fx < s.filterWidth; ++fx) {
                const int inX = inXOrigin + s.dilationWidth * fx;
                const int inY = inYOrigin + s.dilationHeight * fy;
                if (inX < 0 || inX >= s.inWidth || inY < 0 || inY >= s.inHeight) continue;
                const In inValue =
                    input[((static_cast<std::int64_t>(b) * s.inHeight + inY) * s.inWidth + inX) *
                              s.inDepth +
                          ic];
                const Filter filterValue =
                    filter[(static_cast<std::int64_t>(fy) * s.filterWidth + fx) * s.outDepth + oc];
                if constexpr (std::is_floating_point_v<Acc>) {
                  acc += inValue * filterValue;
                } else {
                  acc += static_cast<Acc>(filterValue) * (static_cast<Acc>(inValue) + inputOffset);
                }
              }
            }
            output[((static_cast<std::int64_t>(b) * s.outHeight + outY) * s.outWidth + outX) *
                       s.outDepth +
                   oc] = finish(oc, acc);
          }
        }
      }
    }
  }
}

std::optional<std::string> checkDepthwiseConv2D(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = attributesOf<ir::DepthwiseConv2DAttrs>(op);
  if (attrs == nullptr) return "DEPTHWISE_CONV_2D operator carries no depthwise attributes";
  if (auto problem = checkConvOperands(graph, op, *attrs, {ir::DType::Int64})) return problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  if (filter.shape[0] != 1) {
    return describeTensor("filter", filter) + " must have 1 as its first dimension";
  }
  const int outChannels = filter.shape[3];
  if (attrs->depthMultiplier < 1 || input.shape[3] * attrs->depthMultiplier != outChannels) {
    return "filter has " + std::to_string(outChannels) + " output channels; expected input depth " +
           std::to_string(input.shape[3]) + " x depth multiplier " +
           std::to_string(attrs->depthMultiplier);
  }
  return checkConvOutput(graph, op, *attrs, outChannels, 3);
}

void evalDepthwiseConv2D(const ir::Graph& graph, const ir::Operator& op, TensorStore& store) {
  const auto& attrs = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  const DepthwiseShape s = depthwiseShape(input, filter, output, attrs);
  const int outIndex = op.outputs[0];

  if (input.dtype == ir::DType::Float32) {
    const float* biasData = bias ? store.data<float>(op.inputs[2]) : nullptr;
    depthwise<float>(s, store.data<float>(op.inputs[0]), store.data<float>(op.inputs[1]), 0.0f,
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
    depthwise<std::int64_t>(s, store.data<std::int8_t>(op.inputs[0]), filterData,
                            -static_cast<std::int64_t>(input.quantization.zeroPoint()),
                            store.mutableData<std::int8_t>(outIndex),
                            int32ConvFinish<std::int8_t>(biasData, multipliers,
                                                         output.quantization.zeroPoint(), range));
    return;
  }

  // 16x8: TFLite Micro reads the bias as int64 only, with or without one.
  const std::int64_t* biasData = bias ? store.data<std::int64_t>(op.inputs[2]) : nullptr;
  depthwise<std::int64_t>(s, store.data<std::int16_t>(op.inputs[0]), filterData, std::int64_t{0},
                          store.mutableData<std::int16_t>(outIndex),
                          int64ConvFinish(biasData, multipliers, range));
}

}  // namespace

extern const Kernel kDepthwiseConv2DKernel{ir::OpType::DepthwiseConv2D, checkDepthwiseConv2D,
                                           evalDepthwiseConv2D};

}  // namespace loupe::reference
