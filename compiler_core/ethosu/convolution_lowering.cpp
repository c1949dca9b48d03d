#include "ethosu/convolution_lowering.h"

#include <algorithm>
#include <string>
#include <variant>

#include "ethosu/weight_stream.h"
#include "ethosu/window_kernel.h"
#include "ops/transpose_conv_plan.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ethosu {

namespace {

class ConvolutionLowering {
 public:
  ConvolutionLowering(const ir::Graph& graph, const ir::Operator& op, const NpuArchitecture& arch)
      : graph_(graph), op_(op), arch_(arch) {}

  LoweredOperation run(const NpuFeatureMap& ifm, const NpuFeatureMap& ofm, int ifmUpscale) {
    const ir::Tensor& in = activation(input(ifmSlot()), "input");
    const ir::Tensor& out = activation(graph_.output(op_, 0), "output");
    const ir::Tensor& filter = input(1);
    checkWeights(filter);
    result_.operation.ifm = ifm;
    result_.operation.ofm = ofm;
    // The windows move over the upscaled IFM.
    result_.operation.ifmUpscale = ifmUpscale;
    upscaled_ = ifm;
    if (ifmUpscale != LOUPE_ETHOSU_upscale_mode_NONE) {
      if (op_.type == ir::OpType::TransposeConv) fail("is upscaled by its stride alone");
      upscaled_.height *= 2;
      upscaled_.width *= 2;
    }
    result_.operation.ifm.zeroPoint = in.quantization.zeroPoint();
    result_.operation.ofm.zeroPoint = out.quantization.zeroPoint();
    std::vector<reference::QuantizedMultiplier> multipliers;
    int kh = 1, kw = 1, ifmDepth = 0, ofmDepth = 0;
    ir::Activation fused = ir::Activation::None;
    switch (op_.type) {
      case ir::OpType::Conv2D: {
        const auto& attrs = attributes<ir::Conv2DAttrs>();
        if (filter.shape.size() != 4 || in.shape.size() != 4 || filter.shape[3] != in.shape[3]) {
          fail("expected a 4-D input and an OHWI filter of the input's depth (no groups)");
        }
        ofmDepth = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
        ifmDepth = filter.shape[3];
        setKernel(reference::windowGeometry(attrs, upscaled_.height, upscaled_.width, kh, kw), kh,
                  kw, attrs.strideH, attrs.strideW, attrs.dilationH, attrs.dilationW);
        fused = attrs.activation;
        ohwi_ = filterValues(filter);
        result_.operation.kind = NpuOperationKind::Conv;
        multipliers =
            reference::perChannelMultipliers(in.quantization.scale(), filter.quantization.scales,
                                             out.quantization.scale(), ofmDepth);
        break;
      }
      case ir::OpType::DepthwiseConv2D: {
        const auto& attrs = attributes<ir::DepthwiseConv2DAttrs>();
        if (filter.shape.size() != 4 || filter.shape[0] != 1 || in.shape.size() != 4) {
          fail("expected a 4-D input and a [1, KH, KW, C] filter");
        }
        // One input channel: a convolution with as many filters as the
        // multiplier (person_detect's first layer); else multiplier 1 only.
        const bool asConvolution = in.shape[3] == 1 && attrs.depthMultiplier == filter.shape[3];
        if (!asConvolution && (attrs.depthMultiplier != 1 || filter.shape[3] != in.shape[3])) {
          fail(
              "the NPU runs depthwise convolutions of depth multiplier 1 only (or of one "
              "input channel)");
        }
        kh = filter.shape[1], kw = filter.shape[2], ofmDepth = filter.shape[3], ifmDepth = 1;
        setKernel(reference::windowGeometry(attrs, upscaled_.height, upscaled_.width, kh, kw), kh,
                  kw, attrs.strideH, attrs.strideW, attrs.dilationH, attrs.dilationW);
        fused = attrs.activation;
        // [1, KH, KW, C] to OHWI [C, KH, KW, 1].
        const std::vector<std::int16_t> hwc = filterValues(filter);
        ohwi_.resize(hwc.size());
        for (int c = 0; c < ofmDepth; ++c) {
          for (int i = 0; i < kh * kw; ++i) {
            ohwi_[static_cast<std::size_t>(c * kh * kw + i)] =
                hwc[static_cast<std::size_t>(i * ofmDepth + c)];
          }
        }
        result_.operation.kind =
            asConvolution ? NpuOperationKind::Conv : NpuOperationKind::Depthwise;
        multipliers =
            reference::perChannelMultipliers(in.quantization.scale(), filter.quantization.scales,
                                             out.quantization.scale(), ofmDepth);
        break;
      }
      case ir::OpType::TransposeConv: {
        const auto& attrs = attributes<ir::TransposeConvAttrs>();
        if (filter.shape.size() != 4 || in.shape.size() != 4 || out.shape.size() != 4 ||
            filter.shape[3] != in.shape[3]) {
          fail("expected 4-D maps and an OHWI filter of the input's depth");
        }
        ofmDepth = filter.shape[0], kh = filter.shape[1], kw = filter.shape[2];
        ifmDepth = filter.shape[3];
        setTransposeKernel(attrs, kh, kw);
        fused = attrs.activation;
        // The convolution over the upscaled IFM takes the filter reversed in
        // both axes (Vela's weight_compressor flips it so).
        const std::vector<std::int16_t> ohwi = filterValues(filter);
        ohwi_.resize(ohwi.size());
        const std::size_t perTap = static_cast<std::size_t>(ifmDepth);
        for (int o = 0; o < ofmDepth; ++o) {
          for (int y = 0; y < kh; ++y) {
            for (int x = 0; x < kw; ++x) {
              const auto from = static_cast<std::size_t>(((o * kh + y) * kw + x)) * perTap;
              const auto to =
                  static_cast<std::size_t>(((o * kh + kh - 1 - y) * kw + kw - 1 - x)) * perTap;
              std::copy_n(ohwi.begin() + static_cast<std::ptrdiff_t>(from), perTap,
                          ohwi_.begin() + static_cast<std::ptrdiff_t>(to));
            }
          }
        }
        result_.operation.kind = NpuOperationKind::Conv;
        multipliers =
            reference::perChannelMultipliers(in.quantization.scale(), filter.quantization.scales,
                                             out.quantization.scale(), ofmDepth);
        break;
      }
      case ir::OpType::FullyConnected: {
        const auto& attrs = attributes<ir::FullyConnectedAttrs>();
        if (filter.shape.size() != 2) fail("expected 2-D [units, depth] weights");
        ofmDepth = filter.shape[0], ifmDepth = filter.shape[1];
        if (in.elementCount() != ifmDepth || out.elementCount() != ofmDepth) {
          fail("the NPU runs fully-connected layers of batch 1 only");
        }
        fused = attrs.activation;
        ohwi_ = filterValues(filter);
        result_.operation.kind = NpuOperationKind::Conv;
        multipliers = reference::fullyConnectedMultipliers(in, filter, out, ofmDepth);
        break;
      }
      default:
        fail("is not a convolution the NPU lowers here");
    }
    NpuOperation& npu = result_.operation;
    if (npu.ifm.depth != (op_.type == ir::OpType::DepthwiseConv2D ? in.shape[3] : ifmDepth) ||
        npu.ofm.depth != ofmDepth) {
      fail("the feature maps given do not have the tensors' depths");
    }
    if (auto problem = reference::unsupportedActivation(fused)) fail(*problem);
    const reference::IntRange range = reference::quantizedActivationRange(fused, out);
    npu.activationMin = range.min;
    npu.activationMax = range.max;
    chooseBlock();
    encodeConstants(multipliers, ofmDepth, kh, kw, ifmDepth);
    return std::move(result_);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw NpuLoweringError("operator " + std::to_string(op_.index) + " (" + op_.typeName() +
                           "): " + why);
  }

  template <typename Attrs>
  const Attrs& attributes() const {
    const auto* attrs = std::get_if<Attrs>(&op_.attributes);
    if (attrs == nullptr) fail("carries no attributes of its type");
    return *attrs;
  }

  // TRANSPOSE_CONV's operands are (output shape, filter, input, bias).
  bool transposed() const { return op_.type == ir::OpType::TransposeConv; }
  std::size_t ifmSlot() const { return transposed() ? 2 : 0; }
  std::size_t biasSlot() const { return transposed() ? 3 : 2; }

  const ir::Tensor& input(std::size_t slot) const {
    const ir::Tensor* t = graph_.input(op_, slot);
    if (t == nullptr) fail("missing input " + std::to_string(slot));
    return *t;
  }

  const ir::Tensor& activation(const ir::Tensor& t, const char* role) const {
    if (auto problem = notInt8PerTensor(role, t)) fail(*problem);
    return t;
  }

  void checkWeights(const ir::Tensor& weights) const {
    if (weights.dtype != ir::DType::Int8 || !weights.isConstant ||
        !weights.quantization.isQuantized()) {
      fail(reference::describeTensor("weights", weights) + " are not constant int8 weights");
    }
    for (const std::int64_t zp : weights.quantization.zeroPoints) {
      if (zp != 0) fail(reference::describeTensor("weights", weights) + " are not symmetric");
    }
  }

  static std::vector<std::int16_t> filterValues(const ir::Tensor& filter) {
    const auto* w = reinterpret_cast<const std::int8_t*>(filter.data.data());
    return std::vector<std::int16_t>(w, w + filter.elementCount());
  }

  void setKernel(const reference::WindowGeometry& g, int kh, int kw, int strideH, int strideW,
                 int dilationH, int dilationW) {
    try {
      result_.operation.kernel = windowKernel(g, upscaled_, result_.operation.ofm, kh, kw, strideH,
                                              strideW, dilationH, dilationW, true);
    } catch (const std::invalid_argument& error) {
      fail(error.what());
    }
  }

  // TRANSPOSE_CONV as the NPU runs it (Vela's fixup_conv2d_backprop): a
  // convolution of stride 1, its filter reversed, over the IFM upscaled by
  // the stride with the zero point between the elements (stride 2, ZEROS).
  // An output o gets input i through tap k where o = i * stride + k - pad
  // (TFLite's padding from the output size); over the upscaled map, tap
  // K-1-k at o - (K-1-pad): the convolution's padding before is K-1-pad.
  // The strides Vela takes: 1x1, 2x2, and 1 along a single row read by a
  // kernel of one row (the upscaled map's first row is the row, the second
  // is never read); the output sizes: the input's times the stride (SAME),
  // plus the kernel's excess over the stride (VALID).
  void setTransposeKernel(const ir::TransposeConvAttrs& attrs, int kh, int kw) {
    NpuOperation& npu = result_.operation;
    const bool stride1 = attrs.strideH == 1 && attrs.strideW == 1;
    const bool stride2 = attrs.strideH == 2 && attrs.strideW == 2;
    const bool wideOnly =
        attrs.strideH == 1 && attrs.strideW == 2 && npu.ifm.height == 1 && kh == 1;
    if (!stride1 && !stride2 && !wideOnly) {
      fail(
          "the NPU runs transpose convolutions of stride 1x1 or 2x2 (or 1x2 of one row and a "
          "kernel of one row), not " +
          std::to_string(attrs.strideH) + "x" + std::to_string(attrs.strideW));
    }
    const int upscale = stride1 ? 1 : 2;
    const auto expected = [&](int input, int kernel, int stride) {
      return attrs.padding == ir::Padding::Same ? input * stride
                                                : input * stride + std::max(kernel - stride, 0);
    };
    const int expectedHeight = expected(npu.ifm.height, kh, attrs.strideH);
    const int expectedWidth = expected(npu.ifm.width, kw, attrs.strideW);
    if (npu.ofm.height != expectedHeight || npu.ofm.width != expectedWidth) {
      fail("its output " + std::to_string(npu.ofm.height) + "x" + std::to_string(npu.ofm.width) +
           " is not the " + (attrs.padding == ir::Padding::Same ? "SAME" : "VALID") +
           " size of its input (the NPU's transpose convolutions take " +
           std::to_string(expectedHeight) + "x" + std::to_string(expectedWidth) + ")");
    }
    if (kh > 64 || kw > 64) fail("its kernel exceeds the NPU's 64x64");
    const int padH =
        reference::transposeConvPadding(attrs.padding, attrs.strideH, npu.ofm.height, kh);
    const int padW =
        reference::transposeConvPadding(attrs.padding, attrs.strideW, npu.ofm.width, kw);
    NpuKernel& k = npu.kernel;
    k.height = kh, k.width = kw;
    k.padTop = kh - 1 - padH;
    k.padLeft = kw - 1 - padW;
    // After the last row (column): what the windows reach past the
    // upscaled IFM.
    k.padBottom = std::max(0, npu.ofm.height - 1 + kh - k.padTop - upscale * npu.ifm.height);
    k.padRight = std::max(0, npu.ofm.width - 1 + kw - k.padLeft - upscale * npu.ifm.width);
    if (k.padTop < 0 || k.padLeft < 0 || k.padTop > 127 || k.padLeft > 127 || k.padBottom > 255 ||
        k.padRight > 255) {
      fail("its padding does not fit the NPU's pad registers");
    }
    if (upscale == 2) npu.ifmUpscale = LOUPE_ETHOSU_upscale_mode_ZEROS;
  }

  void chooseBlock() {
    NpuOperation& npu = result_.operation;
    BlockRequest request;
    request.kind = npu.kind == NpuOperationKind::Depthwise ? NpuBlockKind::Depthwise
                                                           : NpuBlockKind::Convolution;
    request.ofm = {npu.ofm.width, npu.ofm.height, npu.ofm.depth};
    request.ifm = {npu.ifm.width, npu.ifm.height, npu.ifm.depth};
    request.kernelWidth = npu.kernel.dilatedWidth();
    request.kernelHeight = npu.kernel.dilatedHeight();
    request.strideX = npu.kernel.strideX;
    request.strideY = npu.kernel.strideY;
    request.ifmUpscale = npu.ifmUpscale;
    const auto block = chooseBlockConfig(arch_, request);
    if (!block) fail("no OFM block fits the SHRAM of " + std::string(arch_.name));
    npu.block = *block;
  }

  // Each core's weight and scale streams: on a two-core NPU (U65-512)
  // core c computes output channels c, c+2, ... with half the block's
  // depth, from streams of its own (as Vela's weight_compressor splits them;
  // the functional model's decoder reads them so).
  void encodeConstants(const std::vector<reference::QuantizedMultiplier>& multipliers, int ofmDepth,
                       int kh, int kw, int ifmDepth) {
    NpuOperation& npu = result_.operation;
    const ir::Tensor* bias = graph_.input(op_, biasSlot());
    if (bias != nullptr && (bias->dtype != ir::DType::Int32 || !bias->isConstant ||
                            bias->elementCount() != ofmDepth)) {
      fail(reference::describeTensor("bias", *bias) + " is not a constant int32 bias of " +
           std::to_string(ofmDepth) + " values");
    }
    const auto* biasValues =
        bias != nullptr ? reinterpret_cast<const std::int32_t*>(bias->data.data()) : nullptr;
    const int cores = std::max(1, arch_.cores);
    const std::size_t perChannel = static_cast<std::size_t>(kh) * kw * ifmDepth;
    npu.weightStreams = cores;
    for (int core = 0; core < std::min(cores, ofmDepth); ++core) {
      const int coreDepth = (ofmDepth - core + cores - 1) / cores;
      const int coreBlockDepth = (npu.block.ofmBlock.depth + cores - 1 - core) / cores;
      if (coreBlockDepth == 0) continue;
      loupe_ethosu_weight_layout layout{};
      layout.ofm_depth = static_cast<std::uint32_t>(coreDepth);
      layout.kernel_height = static_cast<std::uint32_t>(kh);
      layout.kernel_width = static_cast<std::uint32_t>(kw);
      layout.ifm_depth = static_cast<std::uint32_t>(ifmDepth);
      layout.ofm_block_depth = static_cast<std::uint32_t>(coreBlockDepth);
      layout.is_depthwise = npu.kind == NpuOperationKind::Depthwise ? 1 : 0;
      layout.is_part_kernel_first = npu.block.partKernelFirst ? 1 : 0;
      layout.ifm_bits = static_cast<std::uint8_t>(npu.ifm.bits);
      layout.dilation_x = static_cast<std::uint8_t>(npu.kernel.dilationX);
      layout.dilation_y = static_cast<std::uint8_t>(npu.kernel.dilationY);
      layout.ifm_ublock_depth = arch_.config.ifm_ublock_depth;
      layout.ofm_ublock_depth = arch_.config.ofm_ublock_depth;
      std::vector<std::int16_t> coreOhwi;
      std::vector<std::uint8_t> coreScales;
      for (int c = core; c < ofmDepth; c += cores) {
        const auto from = ohwi_.begin() + static_cast<std::ptrdiff_t>(perChannel * c);
        coreOhwi.insert(coreOhwi.end(), from, from + static_cast<std::ptrdiff_t>(perChannel));
        const reference::QuantizedMultiplier& m = multipliers[static_cast<std::size_t>(c)];
        ChannelScale channel;
        channel.bias = biasValues != nullptr ? biasValues[c] : 0;
        channel.scale = static_cast<std::uint32_t>(m.multiplier);
        channel.shift = m.multiplier == 0 ? 0 : 31 - m.shift;
        if (channel.shift < 0 || channel.shift > 63) {
          fail("output channel " + std::to_string(c) + "'s scale needs a shift of " +
               std::to_string(channel.shift) + ", outside the NPU's 0-63");
        }
        appendScaleRecord(coreScales, channel);
      }
      // The NPU takes a scale stream's length only in multiples of 16 bytes
      // (Vela asserts it, and pads its streams with zeros the same way).
      coreScales.resize((coreScales.size() + 15) / 16 * 16, 0);
      result_.weights[static_cast<std::size_t>(core)] = encodeWeightStream(layout, coreOhwi);
      result_.scales[static_cast<std::size_t>(core)] = std::move(coreScales);
    }
    for (std::size_t core = 0; core < result_.weights.size(); ++core) {
      npu.weights[core] = {0, 0, static_cast<std::uint32_t>(result_.weights[core].size())};
      npu.scales[core] = {0, 0, static_cast<std::uint32_t>(result_.scales[core].size())};
    }
  }

  const ir::Graph& graph_;
  const ir::Operator& op_;
  const NpuArchitecture& arch_;
  std::vector<std::int16_t> ohwi_;
  NpuFeatureMap upscaled_;  // the IFM's extents as the kernel moves over it
  LoweredOperation result_;
};

}  // namespace

namespace {

std::uint64_t alignTo16(std::uint64_t n) {
  return (n + 15) / 16 * 16;
}

}  // namespace

std::optional<std::string> notInt8PerTensor(std::string_view role, const ir::Tensor& tensor) {
  if (tensor.dtype == ir::DType::Int8 && tensor.quantization.isQuantized() &&
      !tensor.quantization.isPerChannel()) {
    return std::nullopt;
  }
  return reference::describeTensor(role, tensor) + " is not an int8 tensor quantised per tensor";
}

ConstantsPlacement appendConstants(LoweredOperation& lowered, std::vector<std::uint8_t>& flash) {
  NpuOperation& npu = lowered.operation;
  ConstantsPlacement placement;
  const auto append = [&flash](const std::vector<std::uint8_t>& stream) {
    flash.resize(alignTo16(flash.size()));
    const std::uint64_t base = flash.size();
    flash.insert(flash.end(), stream.begin(), stream.end());
    return base;
  };
  flash.resize(alignTo16(flash.size()));
  placement.begin = flash.size();
  for (std::size_t core = 0; core < lowered.scales.size(); ++core) {
    if (!lowered.scales[core].empty()) npu.scales[core].base = append(lowered.scales[core]);
  }
  placement.scalesEnd = alignTo16(flash.size());
  for (std::size_t core = 0; core < lowered.weights.size(); ++core) {
    if (!lowered.weights[core].empty()) npu.weights[core].base = append(lowered.weights[core]);
  }
  placement.end = alignTo16(flash.size());
  flash.resize(placement.end);
  for (std::size_t core = 1; core < lowered.weights.size(); ++core) {
    if (lowered.weights[core].empty()) {
      npu.weights[core] = {npu.weights[0].region, npu.weights[0].base, 0};
      npu.scales[core] = {npu.scales[0].region, npu.scales[0].base, 0};
    }
  }
  return placement;
}

std::uint64_t constantsBytes(const LoweredOperation& lowered, bool withWeights) {
  std::uint64_t bytes = 0;
  for (const auto& stream : lowered.scales) bytes += alignTo16(stream.size());
  if (withWeights) {
    for (const auto& stream : lowered.weights) bytes += alignTo16(stream.size());
  }
  return bytes;
}

LoweredOperation lowerConvolution(const ir::Graph& graph, const ir::Operator& op,
                                  const NpuArchitecture& arch, const NpuFeatureMap& ifm,
                                  const NpuFeatureMap& ofm, int ifmUpscale) {
  return ConvolutionLowering(graph, op, arch).run(ifm, ofm, ifmUpscale);
}

}  // namespace loupe::ethosu
