#include "passes/fuse_operators.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "passes/graph_rewrite.h"
#include "reference/activation_params.h"
#include "reference/kernel.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::passes {

namespace {

using ir::DType;
using ir::OpType;

// Whether the reference kernel accepts the operator as the graph stands: a
// rule never turns a graph the interpreter refuses into one it runs.
bool kernelAccepts(const ir::Graph& graph, const ir::Operator& op) {
  const reference::Kernel* kernel = reference::findKernel(op.type);
  return kernel != nullptr && !kernel->check(graph, op);
}

// The only read of `tensor` is input `slot` of the operator at `position`,
// and the tensor is no model output.
bool onlyReadBy(const ir::Graph& graph, const std::vector<std::vector<TensorUse>>& uses, int tensor,
                int position, int slot) {
  const auto& reads = uses.at(static_cast<std::size_t>(tensor));
  return reads.size() == 1 && reads[0].op == position && reads[0].slot == slot &&
         !isGraphOutput(graph, tensor) && !graph.tensor(tensor).isVariable;
}

// --- (a) RELU / RELU6 into the producer's fused activation -------------------

ir::Activation* fusedActivationOf(ir::Operator& op) {
  if (auto* a = std::get_if<ir::Conv2DAttrs>(&op.attributes)) return &a->activation;
  if (auto* a = std::get_if<ir::DepthwiseConv2DAttrs>(&op.attributes)) return &a->activation;
  if (auto* a = std::get_if<ir::FullyConnectedAttrs>(&op.attributes)) return &a->activation;
  return nullptr;
}

// The fused activation that clamps like `producer` followed by a standalone
// RELU or RELU6, in real numbers: the intersection of the two ranges, when it
// is one TFLite can name.
std::optional<ir::Activation> combinedActivation(ir::Activation producer, OpType standalone) {
  const bool relu6 = standalone == OpType::Relu6;
  switch (producer) {
    case ir::Activation::None:
    case ir::Activation::Relu:
      return relu6 ? ir::Activation::Relu6 : ir::Activation::Relu;
    case ir::Activation::Relu6:
      return ir::Activation::Relu6;
    default:
      return std::nullopt;  // RELU_N1_TO_1 and the non-clamps do not combine
  }
}

// Whether clamping to the producer's range and then applying the standalone
// activation gives the same integers as one clamp to the combined range.
//   The producer writes clamp(v, P) with P = quantizedActivationRange(before).
//   RELU with the same scale and zero point on both sides requantises by the
//   multiplier of 1.0 (2^30, shift 1), which returns x - zp unchanged, then
//   clamps to [max(type min, zp), type max]; RELU6 clamps to the input's
//   quantised [0, 6] (TFLM's relu6Params). clamp(clamp(v, P), S) equals
//   clamp(v, P n S) when P n S is not empty, so the rule holds exactly when
//   the combined activation's range is P n S, which is what is compared, with
//   the same functions the kernels call.
// For float32, the producer clamps to [-FLT_MAX, FLT_MAX] at least, so +-inf
// never reach the activation; RELU (x < 0 ? 0 : x) and RELU6 then agree with
// the combined clamp on every value, -0.0 and NaN included (all keep them).
bool clampsCompose(const ir::Tensor& output, ir::Activation before, OpType standalone,
                   ir::Activation after) {
  if (output.dtype == DType::Float32) return true;
  if (output.dtype != DType::Int8 && output.dtype != DType::Int16) return false;
  const bool int16 = output.dtype == DType::Int16;
  const std::int32_t typeMin =
      int16 ? std::numeric_limits<std::int16_t>::min() : std::numeric_limits<std::int8_t>::min();
  const std::int32_t typeMax =
      int16 ? std::numeric_limits<std::int16_t>::max() : std::numeric_limits<std::int8_t>::max();
  const float scale = output.quantization.scale();
  const std::int32_t zeroPoint = output.quantization.zeroPoint();
  reference::IntRange standaloneRange;
  if (standalone == OpType::Relu) {
    const auto p = reference::reluParams(scale, zeroPoint, scale, zeroPoint, typeMin, typeMax);
    if (!(p.requantize == reference::quantizeMultiplier(1.0))) return false;
    standaloneRange = {p.quantizedMin, p.quantizedMax};
  } else {
    const auto p = reference::relu6Params(scale, zeroPoint, typeMin, typeMax);
    if (p.zero < typeMin || p.zero > typeMax) return false;
    standaloneRange = {p.zero, p.six};
  }
  const reference::IntRange producerRange = reference::quantizedActivationRange(before, output);
  const reference::IntRange composed = {std::max(producerRange.min, standaloneRange.min),
                                        std::min(producerRange.max, standaloneRange.max)};
  if (composed.min > composed.max || standaloneRange.min > standaloneRange.max) return false;
  return reference::quantizedActivationRange(after, output) == composed;
}

bool fuseActivation(ir::Graph& graph, PassContext& context) {
  const auto uses = tensorUses(graph);
  const auto producers = tensorProducers(graph);
  for (std::size_t position = 0; position < graph.operators.size(); ++position) {
    const ir::Operator& activation = graph.operators[position];
    if (activation.type != OpType::Relu && activation.type != OpType::Relu6) continue;
    if (activation.inputs.size() != 1 || activation.outputs.size() != 1) continue;
    const int between = activation.inputs[0];
    if (between == ir::kNoTensor) continue;
    const int producerPosition = producers.at(static_cast<std::size_t>(between));
    if (producerPosition < 0) continue;
    ir::Operator& producer = graph.operators[static_cast<std::size_t>(producerPosition)];
    ir::Activation* fused = fusedActivationOf(producer);
    if (fused == nullptr || producer.outputs.size() != 1) continue;
    if (!onlyReadBy(graph, uses, between, static_cast<int>(position), 0)) continue;
    const ir::Tensor& in = graph.tensor(between);
    const ir::Tensor& out = graph.output(activation, 0);
    if (in.dtype != out.dtype || in.shape != out.shape || !(in.quantization == out.quantization)) {
      continue;
    }
    if (out.quantization.isPerChannel()) continue;
    const auto after = combinedActivation(*fused, activation.type);
    if (!after || !clampsCompose(out, *fused, activation.type, *after)) continue;
    if (!kernelAccepts(graph, producer) || !kernelAccepts(graph, activation)) continue;

    ir::Operator candidate = producer;
    *fusedActivationOf(candidate) = *after;
    candidate.outputs[0] = activation.outputs[0];
    candidate.sourceOperators = mergedSources(producer, activation);
    if (!kernelAccepts(graph, candidate)) continue;
    context.remark(operatorLabel(activation) + " folded into " + operatorLabel(producer) +
                   " as fused activation " + std::string(ir::activationName(*after)));
    producer = std::move(candidate);
    std::vector<bool> remove(graph.operators.size(), false);
    remove[position] = true;
    removeOperators(graph, remove);
    return true;
  }
  return false;
}

// --- (b) PAD / PADV2 into the convolution's explicit padding -----------------

// The value a convolution skips at a padded tap, as the tap's stored value:
// int8 kernels accumulate filter * (x - input zero point), so x = zero point
// adds exactly 0; 16x8 kernels use no zero point, so x = 0 adds 0; float32
// adds x * w = +-0, which leaves any sum unchanged (the sum starts at +0 and
// +0 + -0 = +0), provided the weight is finite (0 * inf is NaN).
bool padValueIsSkippedTap(const ir::Graph& graph, const ir::Operator& pad, const ir::Tensor& padded,
                          const ir::Tensor& filter) {
  const ir::Tensor* value = graph.input(pad, 2);
  if (value != nullptr &&
      (!value->isConstant || value->elementCount() != 1 || value->dtype != padded.dtype ||
       value->data.size() != ir::dtypeSize(padded.dtype))) {
    return false;
  }
  switch (padded.dtype) {
    case DType::Int8: {
      // Without a value operand TFLM pads int8 with the output zero point.
      if (!padded.quantization.isQuantized() || padded.quantization.isPerChannel()) return false;
      const std::int32_t padValue =
          value ? static_cast<std::int8_t>(value->data[0]) : padded.quantization.zeroPoint();
      return padValue == padded.quantization.zeroPoint();
    }
    case DType::Int16: {
      std::int16_t padValue = 0;  // int16 PAD pads with 0 without a value operand
      if (value) std::memcpy(&padValue, value->data.data(), 2);
      return padValue == 0;
    }
    case DType::Float32: {
      float padValue = 0.0f;
      if (value) std::memcpy(&padValue, value->data.data(), 4);
      if (padValue != 0.0f || !filter.isConstant) return false;
      const std::size_t count = filter.data.size() / 4;
      for (std::size_t i = 0; i < count; ++i) {
        float w;
        std::memcpy(&w, filter.data.data() + i * 4, 4);
        if (!std::isfinite(w)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

// The convolution's padding in the padded input's frame, spelled out, plus
// the PAD's height and width amounts: the same windows over the PAD's input.
template <typename Attrs>
std::optional<ir::ExplicitPadding> foldedPadding(const Attrs& attrs, const ir::Tensor& padded,
                                                 const ir::Tensor& filter,
                                                 const std::vector<std::int64_t>& pads) {
  const auto g = reference::windowGeometry(attrs, padded.shape[1], padded.shape[2], filter.shape[1],
                                           filter.shape[2]);
  ir::ExplicitPadding p =
      attrs.explicitPadding ? *attrs.explicitPadding : reference::explicitPaddingOf(g);
  p.top += static_cast<int>(pads[2]);
  p.bottom += static_cast<int>(pads[3]);
  p.left += static_cast<int>(pads[4]);
  p.right += static_cast<int>(pads[5]);
  return p;
}

bool fusePad(ir::Graph& graph, PassContext& context) {
  const auto uses = tensorUses(graph);
  for (std::size_t position = 0; position < graph.operators.size(); ++position) {
    const ir::Operator& pad = graph.operators[position];
    if (pad.type != OpType::Pad && pad.type != OpType::PadV2) continue;
    if (pad.outputs.size() != 1) continue;
    const ir::Tensor* source = graph.input(pad, 0);
    const ir::Tensor* paddings = graph.input(pad, 1);
    if (source == nullptr || paddings == nullptr || !paddings->isConstant) continue;
    const int paddedIndex = pad.outputs[0];
    const ir::Tensor& padded = graph.tensor(paddedIndex);
    const auto& reads = uses.at(static_cast<std::size_t>(paddedIndex));
    if (reads.size() != 1) continue;
    const int convPosition = reads[0].op;
    if (!onlyReadBy(graph, uses, paddedIndex, convPosition, 0)) continue;
    ir::Operator& conv = graph.operators[static_cast<std::size_t>(convPosition)];
    if (conv.type != OpType::Conv2D && conv.type != OpType::DepthwiseConv2D) continue;
    const ir::Tensor* filter = graph.input(conv, 1);
    if (filter == nullptr || filter->shape.size() != 4) continue;
    if (source->shape.size() != 4 || padded.shape.size() != 4 || source->dtype != padded.dtype ||
        !(source->quantization == padded.quantization)) {
      continue;
    }
    const auto pads = reference::constantIntegers(*paddings);
    if (!pads || pads->size() != 8) continue;
    if ((*pads)[0] != 0 || (*pads)[1] != 0 || (*pads)[6] != 0 || (*pads)[7] != 0) continue;
    if (std::any_of(pads->begin(), pads->end(), [](std::int64_t v) { return v < 0; })) continue;
    if (!padValueIsSkippedTap(graph, pad, padded, *filter)) continue;
    if (!kernelAccepts(graph, pad) || !kernelAccepts(graph, conv)) continue;

    ir::Operator candidate = conv;
    std::optional<ir::ExplicitPadding> combined;
    if (auto* a = std::get_if<ir::Conv2DAttrs>(&candidate.attributes)) {
      combined = foldedPadding(*a, padded, *filter, *pads);
      a->explicitPadding = combined;
    } else if (auto* a = std::get_if<ir::DepthwiseConv2DAttrs>(&candidate.attributes)) {
      combined = foldedPadding(*a, padded, *filter, *pads);
      a->explicitPadding = combined;
    }
    if (!combined) continue;
    candidate.inputs[0] = pad.inputs[0];
    candidate.sourceOperators = mergedSources(conv, pad);
    // The kernel's check recomputes the output shape from the new padding:
    // the same windows give the same output.
    if (!kernelAccepts(graph, candidate)) continue;
    context.remark(operatorLabel(pad) + " folded into " + operatorLabel(conv) + " as " +
                   ir::explicitPaddingToString(*combined));
    conv = std::move(candidate);
    std::vector<bool> remove(graph.operators.size(), false);
    remove[position] = true;
    removeOperators(graph, remove);
    return true;
  }
  return false;
}

}  // namespace

ir::Graph fuseOperators(ir::Graph graph, PassContext& context) {
  // One rewrite at a time, re-reading the graph after each, so chains (PAD,
  // CONV_2D, RELU) fuse completely whatever their order.
  while (fuseActivation(graph, context) || fusePad(graph, context)) {
  }
  for (auto& op : graph.operators) {
    if (!op.isView && ir::isNoCopyView(graph, op)) {
      op.isView = true;
      context.remark(operatorLabel(op) + " is a view of its input (no copy)");
    }
  }
  return graph;
}

}  // namespace loupe::passes
