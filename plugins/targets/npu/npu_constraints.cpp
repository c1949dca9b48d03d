#include "targets/npu/npu_constraints.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <variant>

#include "ir/graph_printer.h"
#include "reference/quantized_params.h"
#include "targets/npu/npu_limits.h"

namespace loupe::targets::npu {

namespace {

using Reasons = std::vector<std::string>;

const std::string kNpu = "the NPU (Ethos-U55-like)";

// 'name' (%3): how a reason names a tensor.
std::string tensorLabel(const ir::Tensor& tensor) {
  return "'" + tensor.name + "' (%" + std::to_string(tensor.index) + ")";
}

bool isConvolution(ir::OpType type) {
  return type == ir::OpType::Conv2D || type == ir::OpType::DepthwiseConv2D ||
         type == ir::OpType::FullyConnected;
}

bool isPooling(ir::OpType type) {
  return type == ir::OpType::AveragePool2D || type == ir::OpType::MaxPool2D;
}

bool isElementwise(ir::OpType type) {
  return type == ir::OpType::Add || type == ir::OpType::Sub || type == ir::OpType::Mul;
}

bool isSupportedType(ir::OpType type) {
  return isConvolution(type) || isPooling(type) || isElementwise(type);
}

// The feature maps: the operator's non-constant inputs and its outputs.
std::vector<const ir::Tensor*> featureMaps(const ir::Graph& graph, const ir::Operator& op) {
  std::vector<const ir::Tensor*> maps;
  const std::size_t activationInputs = isElementwise(op.type) ? 2 : 1;
  for (std::size_t slot = 0; slot < activationInputs && slot < op.inputs.size(); ++slot) {
    if (const ir::Tensor* t = graph.input(op, slot)) maps.push_back(t);
  }
  for (std::size_t slot = 0; slot < op.outputs.size(); ++slot) {
    maps.push_back(&graph.output(op, slot));
  }
  return maps;
}

std::string role(const ir::Operator& op, const ir::Tensor& tensor) {
  for (int output : op.outputs) {
    if (output == tensor.index) return "output";
  }
  return "input";
}

// --- one rule each ------------------------------------------------------------

void checkActivationTensors(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  for (const ir::Tensor* t : featureMaps(graph, op)) {
    const std::string what = role(op, *t) + " " + tensorLabel(*t);
    if (t->dtype != ir::DType::Int8) {
      reasons.push_back(what + " is " + std::string(ir::dtypeName(t->dtype)) + ", not int8");
    } else if (!t->quantization.isQuantized()) {
      reasons.push_back(what + " is int8 without quantisation parameters");
    } else if (t->quantization.isPerChannel()) {
      reasons.push_back(what + " is quantised per channel (" +
                        std::to_string(t->quantization.scales.size()) +
                        " scales); activations must be quantised per tensor");
    }
  }
}

void checkRank(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  for (const ir::Tensor* t : featureMaps(graph, op)) {
    if (t->shape.size() > kMaxRank) {
      reasons.push_back(role(op, *t) + " " + tensorLabel(*t) + " has rank " +
                        std::to_string(t->shape.size()) + ", more than " +
                        std::to_string(kMaxRank));
    }
  }
}

void checkLimit(Reasons& reasons, const std::string& what, std::int64_t value, std::int64_t limit) {
  if (value > limit) {
    reasons.push_back(what + " " + ir::groupDigits(value) + " exceeds " + ir::groupDigits(limit));
  }
}

// Batch, height, width and channels of every feature map, read as NHWC from
// the innermost dimension out (a rank-2 [rows, channels] map has height 1);
// a FULLY_CONNECTED input is [rows, the weights' input channels] whatever
// its rank.
void checkFeatureMapSizes(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  for (const ir::Tensor* t : featureMaps(graph, op)) {
    if (t->shape.size() > kMaxRank || t->shape.empty()) continue;
    const std::string name = role(op, *t) + " " + tensorLabel(*t);
    const ir::Shape& s = t->shape;
    const std::size_t rank = s.size();
    std::int64_t batch = 1, height = 1, width = 1, channels = s[rank - 1];
    const ir::Tensor* weights = graph.input(op, 1);
    if (op.type == ir::OpType::FullyConnected && role(op, *t) == "input" && weights != nullptr &&
        weights->shape.size() == 2 && weights->shape[1] > 0) {
      // The input is flattened to [rows, weights' input channels].
      channels = weights->shape[1];
      batch = t->elementCount() / channels;
    } else {
      if (rank >= 2) width = s[rank - 2];
      if (rank >= 3) height = s[rank - 3];
      if (rank >= 4) batch = s[0];
    }
    checkLimit(reasons, name + " batch", batch, kMaxBatch);
    checkLimit(reasons, name + " height", height, kMaxFeatureMapHeight);
    checkLimit(reasons, name + " width", width, kMaxFeatureMapWidth);
    checkLimit(reasons, name + " channels", channels, kMaxChannels);
  }
}

ir::Activation fusedActivation(const ir::Attributes& attributes) {
  return std::visit(
      [](const auto& attrs) -> ir::Activation {
        if constexpr (requires { attrs.activation; }) {
          return attrs.activation;
        } else {
          return ir::Activation::None;
        }
      },
      attributes);
}

void checkFusedActivation(const ir::Operator& op, Reasons& reasons) {
  const ir::Activation activation = fusedActivation(op.attributes);
  if (activation == ir::Activation::None || activation == ir::Activation::Relu ||
      activation == ir::Activation::Relu6 || activation == ir::Activation::ReluN1To1) {
    return;
  }
  reasons.push_back("fused activation " + std::string(ir::activationName(activation)) +
                    " is not one of NONE, RELU, RELU6, RELU_N1_TO_1");
}

void checkRange(Reasons& reasons, const std::string& what, int value, int low, int high) {
  if (value < low) {
    reasons.push_back(what + " " + std::to_string(value) + " is below " + std::to_string(low));
  } else if (value > high) {
    reasons.push_back(what + " " + std::to_string(value) + " exceeds " + std::to_string(high));
  }
}

struct Window {
  int strideH = 1, strideW = 1;
  int dilationH = 1, dilationW = 1;
  int kernelH = 1, kernelW = 1;
  std::optional<ir::ExplicitPadding> explicitPadding;
};

// The sliding window of a convolution or pooling operator; FULLY_CONNECTED
// is a 1x1 convolution.
std::optional<Window> windowOf(const ir::Graph& graph, const ir::Operator& op) {
  Window w;
  const ir::Tensor* weights = isConvolution(op.type) ? graph.input(op, 1) : nullptr;
  if (const auto* a = std::get_if<ir::Conv2DAttrs>(&op.attributes)) {
    w = {a->strideH, a->strideW, a->dilationH, a->dilationW, 1, 1, a->explicitPadding};
  } else if (const auto* a = std::get_if<ir::DepthwiseConv2DAttrs>(&op.attributes)) {
    w = {a->strideH, a->strideW, a->dilationH, a->dilationW, 1, 1, a->explicitPadding};
  } else if (const auto* a = std::get_if<ir::Pool2DAttrs>(&op.attributes)) {
    w = {a->strideH, a->strideW, 1, 1, a->filterH, a->filterW, a->explicitPadding};
  } else {
    return std::nullopt;
  }
  // Weights are [out, kh, kw, in] (CONV_2D) or [1, kh, kw, channels].
  if (weights != nullptr && weights->shape.size() == 4) {
    w.kernelH = weights->shape[1];
    w.kernelW = weights->shape[2];
  }
  return w;
}

void checkWindow(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  const auto window = windowOf(graph, op);
  if (!window) return;
  const Window& w = *window;
  checkRange(reasons, "stride height", w.strideH, kMinStride, kMaxStride);
  checkRange(reasons, "stride width", w.strideW, kMinStride, kMaxStride);
  int effectiveH = w.kernelH, effectiveW = w.kernelW;
  if (isPooling(op.type)) {
    checkRange(reasons, "kernel height", w.kernelH, 1, kMaxPoolKernel);
    checkRange(reasons, "kernel width", w.kernelW, 1, kMaxPoolKernel);
  } else {
    checkRange(reasons, "dilation height", w.dilationH, kMinDilation, kMaxDilation);
    checkRange(reasons, "dilation width", w.dilationW, kMinDilation, kMaxDilation);
    effectiveH = (w.kernelH - 1) * w.dilationH + 1;
    effectiveW = (w.kernelW - 1) * w.dilationW + 1;
    checkRange(reasons, "dilated kernel height", effectiveH, 1, kMaxConvKernel);
    checkRange(reasons, "dilated kernel width", effectiveW, 1, kMaxConvKernel);
    const std::int64_t area = std::int64_t{w.kernelH} * w.kernelW;
    if (area > kMaxConvKernelArea) {
      reasons.push_back("kernel area " + std::to_string(w.kernelH) + "x" +
                        std::to_string(w.kernelW) + " = " + ir::groupDigits(area) + " exceeds " +
                        ir::groupDigits(kMaxConvKernelArea));
    }
  }
  // Legalisation spells SAME out as explicit padding, and fuses a PAD into
  // the window the same way; the NPU pads at most a window's reach less one.
  if (const auto& p = w.explicitPadding) {
    checkRange(reasons, "padding top", p->top, 0, effectiveH - 1);
    checkRange(reasons, "padding bottom", p->bottom, 0, effectiveH - 1);
    checkRange(reasons, "padding left", p->left, 0, effectiveW - 1);
    checkRange(reasons, "padding right", p->right, 0, effectiveW - 1);
  }
}

void checkDepthMultiplier(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  if (op.type != ir::OpType::DepthwiseConv2D) return;
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  int multiplier = std::get<ir::DepthwiseConv2DAttrs>(op.attributes).depthMultiplier;
  // Converters may leave depth_multiplier 0; the channels say what it is.
  if (input != nullptr && !input->shape.empty() && !output.shape.empty() &&
      input->shape.back() > 0) {
    multiplier = output.shape.back() / input->shape.back();
  }
  if (multiplier != kDepthMultiplier) {
    reasons.push_back("depth multiplier " + std::to_string(multiplier) + " is not " +
                      std::to_string(kDepthMultiplier));
  }
}

void checkWeights(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  const ir::Tensor* weights = graph.input(op, 1);
  if (weights == nullptr) {
    reasons.push_back(std::string(ir::opTypeName(op.type)) + " has no weights");
    return;
  }
  const std::string what = "weights " + tensorLabel(*weights);
  if (!weights->isConstant) reasons.push_back(what + " are not constant");
  if (weights->dtype != ir::DType::Int8) {
    reasons.push_back(what + " are " + std::string(ir::dtypeName(weights->dtype)) + ", not int8");
  } else if (!weights->quantization.isQuantized()) {
    reasons.push_back(what + " are int8 without quantisation parameters");
  }
  const auto& zeroPoints = weights->quantization.zeroPoints;
  for (std::size_t c = 0; c < zeroPoints.size(); ++c) {
    if (zeroPoints[c] != 0) {
      reasons.push_back(what + " have zero point " + std::to_string(zeroPoints[c]) + " (channel " +
                        std::to_string(c) + "); they must be symmetric (0)");
      break;
    }
  }
  if (weights->byteSize() > kMaxWeightBytes) {
    reasons.push_back(what + " are " + ir::groupDigits(weights->byteSize()) + " bytes, more than " +
                      ir::groupDigits(kMaxWeightBytes) + " (1 MiB)");
  }
}

std::vector<std::int64_t> biasValues(const ir::Tensor& bias) {
  std::vector<std::int64_t> values;
  if (bias.dtype == ir::DType::Int32) {
    for (std::size_t i = 0; i + 4 <= bias.data.size(); i += 4) {
      std::int32_t v;
      std::memcpy(&v, bias.data.data() + i, 4);
      values.push_back(v);
    }
  } else if (bias.dtype == ir::DType::Int64) {
    for (std::size_t i = 0; i + 8 <= bias.data.size(); i += 8) {
      std::int64_t v;
      std::memcpy(&v, bias.data.data() + i, 8);
      values.push_back(v);
    }
  }
  return values;
}

void checkBias(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  const ir::Tensor* bias = graph.input(op, 2);
  if (bias == nullptr) {
    if (op.type != ir::OpType::FullyConnected) {
      reasons.push_back(std::string(ir::opTypeName(op.type)) +
                        " has no bias; only FULLY_CONNECTED may leave it out");
    }
    return;
  }
  const std::string what = "bias " + tensorLabel(*bias);
  if (bias->dtype != ir::DType::Int32) {
    reasons.push_back(what + " is " + std::string(ir::dtypeName(bias->dtype)) + ", not int32");
  }
  if (!bias->isConstant) {
    reasons.push_back(what + " is not constant");
    return;
  }
  const auto values = biasValues(*bias);
  for (std::size_t c = 0; c < values.size(); ++c) {
    const std::int64_t v = values[c];
    if (v >= kBiasMagnitudeLimit || v <= -kBiasMagnitudeLimit) {
      reasons.push_back(what + " value " + std::to_string(v) + " (channel " + std::to_string(c) +
                        ") does not fit in 40 bits (|b| < 2^39)");
      break;
    }
  }
}

// The per-channel multiplier input scale x weight scale / output scale, as
// TFLite's QuantizeMultiplier encodes it: a shift above 30 cannot be applied
// (the product overflows). Below -31 TFLite flushes the channel's multiplier
// to zero, and so does the NPU's scale stream: the same bytes, so accepted.
void checkRequantisation(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* weights = graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input == nullptr || weights == nullptr || !input->quantization.isQuantized() ||
      !weights->quantization.isQuantized() || !output.quantization.isQuantized()) {
    return;  // the dtype rules say why
  }
  const auto& scales = weights->quantization.scales;
  for (std::size_t c = 0; c < scales.size(); ++c) {
    const double real = static_cast<double>(input->quantization.scale()) * scales[c] /
                        static_cast<double>(output.quantization.scale());
    const std::string where =
        "effective scale " + ir::floatToString(static_cast<float>(real)) +
        (scales.size() > 1 ? " (channel " + std::to_string(c) + ")" : std::string());
    if (!std::isfinite(real) || real < 0.0) {
      reasons.push_back(where + " is not a finite, non-negative number");
      break;
    }
    if (real == 0.0) continue;
    const reference::QuantizedMultiplier q = reference::quantizeMultiplier(real);
    if (q.shift > kMaxRequantShift) {
      reasons.push_back(where + " needs shift " + std::to_string(q.shift) + ", more than " +
                        std::to_string(kMaxRequantShift) + " (TFLite's QuantizeMultiplier)");
      break;
    }
  }
}

void checkElementwiseShapes(const ir::Graph& graph, const ir::Operator& op, Reasons& reasons) {
  const ir::Tensor* a = graph.input(op, 0);
  const ir::Tensor* b = graph.input(op, 1);
  if (a == nullptr || b == nullptr || a->shape == b->shape) return;
  reasons.push_back("the inputs' shapes differ (" + ir::shapeToString(a->shape) + " and " +
                    ir::shapeToString(b->shape) + "); both must have the same shape");
}

}  // namespace

std::vector<std::string> npuConstraintViolations(const ir::Graph& graph, const ir::Operator& op) {
  if (!isSupportedType(op.type)) {
    return {"operator type " + op.typeName() + " is not supported by " + kNpu};
  }
  Reasons reasons;
  checkActivationTensors(graph, op, reasons);
  checkRank(graph, op, reasons);
  checkFeatureMapSizes(graph, op, reasons);
  checkFusedActivation(op, reasons);
  checkWindow(graph, op, reasons);
  checkDepthMultiplier(graph, op, reasons);
  if (isConvolution(op.type)) {
    checkWeights(graph, op, reasons);
    checkBias(graph, op, reasons);
    checkRequantisation(graph, op, reasons);
  }
  if (isElementwise(op.type)) checkElementwiseShapes(graph, op, reasons);
  return reasons;
}

}  // namespace loupe::targets::npu
