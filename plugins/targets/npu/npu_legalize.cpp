#include "targets/npu/npu_legalize.h"

#include <string>
#include <variant>

#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::npu {

namespace {

class Legalizer {
 public:
  Legalizer(const ir::Graph& graph, const ir::Operator& op, const NpuConfig& config)
      : graph_(graph), op_(op), config_(config) {}

  NpuLegalizedOperator run() {
    switch (op_.type) {
      case ir::OpType::Conv2D:
        return convolution();
      case ir::OpType::DepthwiseConv2D:
        return depthwise();
      case ir::OpType::FullyConnected:
        return fullyConnected();
      case ir::OpType::AveragePool2D:
      case ir::OpType::MaxPool2D:
        return pool();
      case ir::OpType::Add:
      case ir::OpType::Sub:
      case ir::OpType::Mul:
        return elementwise();
      default:
        fail("the NPU has no " + op_.typeName() + " primitive");
    }
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw NpuLegalizeError("operator " + std::to_string(op_.index) + " (" + op_.typeName() +
                           "): " + why);
  }

  template <typename Attrs>
  const Attrs& attributes() const {
    const auto* attrs = std::get_if<Attrs>(&op_.attributes);
    if (attrs == nullptr) fail("carries no attributes of its type");
    return *attrs;
  }

  const ir::Tensor& input(std::size_t slot) const {
    const ir::Tensor* t = graph_.input(op_, slot);
    if (t == nullptr) fail("missing input " + std::to_string(slot));
    return *t;
  }

  // An int8 activation quantised per tensor.
  const ir::Tensor& activation(const ir::Tensor& t, const char* role) const {
    if (t.dtype != ir::DType::Int8 || t.quantization.isPerChannel() ||
        !t.quantization.isQuantized()) {
      fail(reference::describeTensor(role, t) + " is not an int8 tensor quantised per tensor");
    }
    if (t.quantization.zeroPoint() < -128 || t.quantization.zeroPoint() > 127) {
      fail(reference::describeTensor(role, t) + " has a zero point outside int8");
    }
    return t;
  }

  // Height x width x depth of an NHWC tensor of batch 1 and rank <= 4.
  NpuFeatureMap featureMap(const ir::Tensor& t, int region, const char* role) const {
    if (t.shape.size() > 4) fail(reference::describeTensor(role, t) + " has rank above 4");
    int dims[4] = {1, 1, 1, 1};
    const std::size_t skip = 4 - t.shape.size();
    for (std::size_t i = 0; i < t.shape.size(); ++i) dims[skip + i] = t.shape[i];
    if (dims[0] != 1) fail(reference::describeTensor(role, t) + " has a batch other than 1");
    NpuFeatureMap map = contiguousFeatureMap(region, dims[1], dims[2], dims[3]);
    map.zeroPoint = t.quantization.zeroPoint();
    return map;
  }

  void checkWindow(int kernelH, int kernelW, int strideH, int strideW, int dilationH, int dilationW,
                   int maxKernel) const {
    if (strideH < 1 || strideW < 1 || strideH > LOUPE_NPU_MAX_STRIDE ||
        strideW > LOUPE_NPU_MAX_STRIDE) {
      fail("stride " + std::to_string(strideH) + "x" + std::to_string(strideW) + " is outside 1.." +
           std::to_string(LOUPE_NPU_MAX_STRIDE));
    }
    if (dilationH < 1 || dilationW < 1 || dilationH > LOUPE_NPU_MAX_DILATION ||
        dilationW > LOUPE_NPU_MAX_DILATION) {
      fail("dilation " + std::to_string(dilationH) + "x" + std::to_string(dilationW) +
           " is outside 1.." + std::to_string(LOUPE_NPU_MAX_DILATION));
    }
    const int effectiveH = (kernelH - 1) * dilationH + 1;
    const int effectiveW = (kernelW - 1) * dilationW + 1;
    if (effectiveH > maxKernel || effectiveW > maxKernel) {
      fail("kernel " + std::to_string(effectiveH) + "x" + std::to_string(effectiveW) + " exceeds " +
           std::to_string(maxKernel) + "x" + std::to_string(maxKernel));
    }
  }

  static NpuKernel kernelOf(const reference::WindowGeometry& g, int kernelH, int kernelW,
                            int strideH, int strideW, int dilationH, int dilationW) {
    const ir::ExplicitPadding padding = reference::explicitPaddingOf(g);
    NpuKernel k;
    k.height = kernelH;
    k.width = kernelW;
    k.strideY = strideH;
    k.strideX = strideW;
    k.dilationY = dilationH;
    k.dilationX = dilationW;
    k.padTop = padding.top;
    k.padBottom = padding.bottom;
    k.padLeft = padding.left;
    k.padRight = padding.right;
    return k;
  }

  void setActivation(NpuOperation& op, ir::Activation activation, const ir::Tensor& output) const {
    if (auto problem = reference::unsupportedActivation(activation)) fail(*problem);
    const reference::IntRange range = reference::quantizedActivationRange(activation, output);
    op.activationMin = range.min;
    op.activationMax = range.max;
  }

  // Weights: int8, symmetric (every zero point 0).
  void checkWeights(const ir::Tensor& weights) const {
    if (weights.dtype != ir::DType::Int8 || !weights.isConstant ||
        !weights.quantization.isQuantized()) {
      fail(reference::describeTensor("weights", weights) + " are not constant int8 weights");
    }
    for (std::int64_t zp : weights.quantization.zeroPoints) {
      if (zp != 0) fail(reference::describeTensor("weights", weights) + " are not symmetric");
    }
  }

  // Bias values (int32) or zeros when the operator has none.
  std::vector<std::int64_t> biases(int channels) const {
    std::vector<std::int64_t> values(static_cast<std::size_t>(channels), 0);
    const ir::Tensor* bias = graph_.input(op_, 2);
    if (bias == nullptr) return values;
    if (bias->dtype != ir::DType::Int32 || !bias->isConstant || bias->elementCount() != channels) {
      fail(reference::describeTensor("bias", *bias) + " is not a constant int32 bias of " +
           std::to_string(channels) + " values");
    }
    const auto* data = reinterpret_cast<const std::int32_t*>(bias->data.data());
    for (int c = 0; c < channels; ++c) values[static_cast<std::size_t>(c)] = data[c];
    return values;
  }

  // The convolution's operation and constants from OHWI weights.
  NpuLegalizedOperator finishConvolution(
      NpuOperation op, const std::vector<std::int8_t>& ohwi, WeightShape shape,
      const std::vector<reference::QuantizedMultiplier>& m) const {
    op.block = chooseBlockConfig(config_, op.ofm.height, op.ofm.width, op.ofm.depth);
    shape.blockDepth = op.block.depth;
    const std::vector<std::int64_t> bias = biases(shape.ofmDepth);
    std::vector<ChannelScale> scales;
    for (int c = 0; c < shape.ofmDepth; ++c) {
      const auto i = static_cast<std::size_t>(c);
      scales.push_back({bias[i], m[i].multiplier, m[i].shift});
    }
    NpuLegalizedOperator result;
    const std::vector<std::uint8_t> scaleStream = encodeScales(scales);
    const std::vector<std::uint8_t> weightStream = encodeWeights(ohwi, shape);
    result.constants = scaleStream;
    result.constants.resize((scaleStream.size() + kConstantsAlignment - 1) / kConstantsAlignment *
                            kConstantsAlignment);
    op.scales = {LOUPE_NPU_REGION_CONSTANTS, 0, static_cast<std::uint32_t>(scaleStream.size())};
    op.weights = {LOUPE_NPU_REGION_CONSTANTS, static_cast<std::uint32_t>(result.constants.size()),
                  static_cast<std::uint32_t>(weightStream.size())};
    result.constants.insert(result.constants.end(), weightStream.begin(), weightStream.end());
    result.operation = op;
    result.weightShape = shape;
    result.rawWeightBytes = shape.count();
    result.encodedWeightBytes = static_cast<std::int64_t>(weightStream.size());
    return result;
  }

  NpuLegalizedOperator convolution() const {
    const auto& attrs = attributes<ir::Conv2DAttrs>();
    const ir::Tensor& in = activation(input(0), "input");
    const ir::Tensor& filter = input(1);
    const ir::Tensor& out = activation(graph_.output(op_, 0), "output");
    checkWeights(filter);
    if (filter.shape.size() != 4 || in.shape.size() != 4 || filter.shape[3] != in.shape[3]) {
      fail("expected a 4-D input and an OHWI filter of the input's depth (no groups)");
    }
    checkWindow(filter.shape[1], filter.shape[2], attrs.strideH, attrs.strideW, attrs.dilationH,
                attrs.dilationW, LOUPE_NPU_MAX_CONV_KERNEL);
    NpuOperation op;
    op.kind = NpuOperationKind::Conv2D;
    op.ifm = featureMap(in, LOUPE_NPU_REGION_IFM, "input");
    op.ofm = featureMap(out, LOUPE_NPU_REGION_OFM, "output");
    const auto g = reference::windowGeometry(attrs, op.ifm.height, op.ifm.width, filter.shape[1],
                                             filter.shape[2]);
    op.kernel = kernelOf(g, filter.shape[1], filter.shape[2], attrs.strideH, attrs.strideW,
                         attrs.dilationH, attrs.dilationW);
    setActivation(op, attrs.activation, out);
    const WeightShape shape{filter.shape[0], filter.shape[1], filter.shape[2], filter.shape[3], 1};
    const auto* w = reinterpret_cast<const std::int8_t*>(filter.data.data());
    return finishConvolution(
        op, std::vector<std::int8_t>(w, w + shape.count()), shape,
        reference::perChannelMultipliers(in.quantization.scale(), filter.quantization.scales,
                                         out.quantization.scale(), shape.ofmDepth));
  }

  NpuLegalizedOperator depthwise() const {
    const auto& attrs = attributes<ir::DepthwiseConv2DAttrs>();
    const ir::Tensor& in = activation(input(0), "input");
    const ir::Tensor& filter = input(1);
    const ir::Tensor& out = activation(graph_.output(op_, 0), "output");
    checkWeights(filter);
    if (attrs.depthMultiplier != 1 || filter.shape.size() != 4 || in.shape.size() != 4 ||
        filter.shape[0] != 1 || filter.shape[3] != in.shape[3]) {
      fail("the NPU runs depthwise convolutions of depth multiplier 1 only");
    }
    checkWindow(filter.shape[1], filter.shape[2], attrs.strideH, attrs.strideW, attrs.dilationH,
                attrs.dilationW, LOUPE_NPU_MAX_CONV_KERNEL);
    NpuOperation op;
    op.kind = NpuOperationKind::DepthwiseConv2D;
    op.ifm = featureMap(in, LOUPE_NPU_REGION_IFM, "input");
    op.ofm = featureMap(out, LOUPE_NPU_REGION_OFM, "output");
    const int kh = filter.shape[1], kw = filter.shape[2], channels = filter.shape[3];
    const auto g = reference::windowGeometry(attrs, op.ifm.height, op.ifm.width, kh, kw);
    op.kernel = kernelOf(g, kh, kw, attrs.strideH, attrs.strideW, attrs.dilationH, attrs.dilationW);
    setActivation(op, attrs.activation, out);
    // [1, KH, KW, C] to OHWI [C, KH, KW, 1].
    const auto* w = reinterpret_cast<const std::int8_t*>(filter.data.data());
    std::vector<std::int8_t> ohwi(static_cast<std::size_t>(channels * kh * kw));
    for (int c = 0; c < channels; ++c) {
      for (int i = 0; i < kh * kw; ++i) {
        ohwi[static_cast<std::size_t>(c * kh * kw + i)] = w[i * channels + c];
      }
    }
    return finishConvolution(
        op, ohwi, WeightShape{channels, kh, kw, 1, 1},
        reference::perChannelMultipliers(in.quantization.scale(), filter.quantization.scales,
                                         out.quantization.scale(), channels));
  }

  // A 1x1 convolution of the input seen as a 1x1xD feature map.
  NpuLegalizedOperator fullyConnected() const {
    const auto& attrs = attributes<ir::FullyConnectedAttrs>();
    const ir::Tensor& in = activation(input(0), "input");
    const ir::Tensor& weights = input(1);
    const ir::Tensor& out = activation(graph_.output(op_, 0), "output");
    checkWeights(weights);
    if (weights.shape.size() != 2) fail("expected 2-D [units, depth] weights");
    const int units = weights.shape[0], depth = weights.shape[1];
    if (in.elementCount() != depth || out.elementCount() != units) {
      fail("the NPU runs fully-connected layers of batch 1 only");
    }
    NpuOperation op;
    op.kind = NpuOperationKind::Conv2D;
    op.ifm = contiguousFeatureMap(LOUPE_NPU_REGION_IFM, 1, 1, depth);
    op.ifm.zeroPoint = in.quantization.zeroPoint();
    op.ofm = contiguousFeatureMap(LOUPE_NPU_REGION_OFM, 1, 1, units);
    op.ofm.zeroPoint = out.quantization.zeroPoint();
    setActivation(op, attrs.activation, out);
    // Per-tensor weights use TFLite's fully-connected multiplier, whose
    // product of scales is rounded to float first.
    std::vector<reference::QuantizedMultiplier> m;
    if (weights.quantization.isPerChannel()) {
      m = reference::perChannelMultipliers(in.quantization.scale(), weights.quantization.scales,
                                           out.quantization.scale(), units);
    } else {
      m.assign(
          static_cast<std::size_t>(units),
          reference::perTensorFullyConnectedMultiplier(
              in.quantization.scale(), weights.quantization.scale(), out.quantization.scale()));
    }
    const auto* w = reinterpret_cast<const std::int8_t*>(weights.data.data());
    return finishConvolution(op, std::vector<std::int8_t>(w, w + std::int64_t{units} * depth),
                             WeightShape{units, 1, 1, depth, 1}, m);
  }

  NpuLegalizedOperator pool() const {
    const auto& attrs = attributes<ir::Pool2DAttrs>();
    const ir::Tensor& in = activation(input(0), "input");
    const ir::Tensor& out = activation(graph_.output(op_, 0), "output");
    if (in.shape.size() != 4) fail("expected a 4-D input");
    checkWindow(attrs.filterH, attrs.filterW, attrs.strideH, attrs.strideW, 1, 1,
                LOUPE_NPU_MAX_POOL_KERNEL);
    NpuOperation op;
    op.kind = op_.type == ir::OpType::MaxPool2D ? NpuOperationKind::MaxPool
                                                : NpuOperationKind::AveragePool;
    op.ifm = featureMap(in, LOUPE_NPU_REGION_IFM, "input");
    op.ofm = featureMap(out, LOUPE_NPU_REGION_OFM, "output");
    const auto g = reference::windowGeometry(attrs, op.ifm.height, op.ifm.width);
    op.kernel = kernelOf(g, attrs.filterH, attrs.filterW, attrs.strideH, attrs.strideW, 1, 1);
    setActivation(op, attrs.activation, out);
    op.block = chooseBlockConfig(config_, op.ofm.height, op.ofm.width, op.ofm.depth);
    NpuLegalizedOperator result;
    result.operation = op;
    return result;
  }

  NpuLegalizedOperator elementwise() const {
    const auto& attrs = attributes<ir::ElementwiseAttrs>();
    const ir::Tensor& a = activation(input(0), "input1");
    const ir::Tensor& b = activation(input(1), "input2");
    const ir::Tensor& out = activation(graph_.output(op_, 0), "output");
    if (a.shape != b.shape || a.shape != out.shape) {
      fail("the NPU's element-wise operations need identical input and output shapes");
    }
    if (auto problem = reference::unsupportedActivation(attrs.activation)) fail(*problem);
    NpuOperation op;
    op.ifm = featureMap(a, LOUPE_NPU_REGION_IFM, "input1");
    op.ifm2 = featureMap(b, LOUPE_NPU_REGION_IFM2, "input2");
    op.ofm = featureMap(out, LOUPE_NPU_REGION_OFM, "output");
    if (op_.type == ir::OpType::Mul) {
      op.kind = NpuOperationKind::Mul;
      const loupe_mul_params p = reference::mulParams(a, b, out, attrs.activation);
      op.ofm.multiplier = p.output_multiplier;
      op.ofm.shift = p.output_shift;
      op.activationMin = p.act_min;
      op.activationMax = p.act_max;
    } else {
      if (auto problem = reference::checkAddSubScales(op_.type, a, b, out)) fail(*problem);
      op.kind = op_.type == ir::OpType::Add ? NpuOperationKind::Add : NpuOperationKind::Sub;
      const loupe_add_sub_params p = reference::addSubParams(op_.type, a, b, out, attrs.activation);
      op.ifm.multiplier = p.input1_multiplier;
      op.ifm.shift = p.input1_shift;
      op.ifm2.multiplier = p.input2_multiplier;
      op.ifm2.shift = p.input2_shift;
      op.ofm.multiplier = p.output_multiplier;
      op.ofm.shift = p.output_shift;
      op.elementwiseLeftShift = p.left_shift;
      op.activationMin = p.act_min;
      op.activationMax = p.act_max;
    }
    op.block = chooseBlockConfig(config_, op.ofm.height, op.ofm.width, op.ofm.depth);
    NpuLegalizedOperator result;
    result.operation = op;
    return result;
  }

  const ir::Graph& graph_;
  const ir::Operator& op_;
  const NpuConfig& config_;
};

}  // namespace

NpuLegalizedOperator legalizeForNpu(const ir::Graph& graph, const ir::Operator& op,
                                    const NpuConfig& config) {
  return Legalizer(graph, op, config).run();
}

}  // namespace loupe::npu
