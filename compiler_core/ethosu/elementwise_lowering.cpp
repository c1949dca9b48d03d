#include "ethosu/elementwise_lowering.h"

#include <string>
#include <variant>

#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ethosu {

namespace {

// A map that covers the OFM, or broadcasts along the axes where it is 1.
bool broadcastsTo(const NpuFeatureMap& map, const NpuFeatureMap& ofm) {
  const auto axis = [](int extent, int out) { return extent == out || extent == 1; };
  return axis(map.height, ofm.height) && axis(map.width, ofm.width) && axis(map.depth, ofm.depth);
}
bool covers(const NpuFeatureMap& map, const NpuFeatureMap& ofm) {
  return map.height == ofm.height && map.width == ofm.width && map.depth == ofm.depth;
}

}  // namespace

NpuOperation lowerElementwise(const ir::Graph& graph, const ir::Operator& op,
                              const NpuArchitecture& arch, const NpuFeatureMap& input0,
                              const NpuFeatureMap& input1, const NpuFeatureMap& ofm) {
  const auto fail = [&op](const std::string& why) {
    throw NpuLoweringError("operator " + std::to_string(op.index) + " (" + op.typeName() +
                           "): " + why);
  };
  const bool minMax = op.type == ir::OpType::Minimum || op.type == ir::OpType::Maximum;
  if (op.type != ir::OpType::Add && op.type != ir::OpType::Sub && op.type != ir::OpType::Mul &&
      !minMax) {
    fail("is not an ADD, SUB, MUL, MINIMUM or MAXIMUM");
  }
  const ir::Tensor* a = graph.input(op, 0);
  const ir::Tensor* b = graph.input(op, 1);
  if (a == nullptr || b == nullptr) fail("needs two inputs");
  const ir::Tensor& out = graph.output(op, 0);
  for (const ir::Tensor* t : {a, b, &out}) {
    if (auto problem = notInt8PerTensor(t == &out ? "output" : "input", *t)) fail(*problem);
  }
  const auto* attrs = std::get_if<ir::ElementwiseAttrs>(&op.attributes);
  const ir::Activation activation = attrs != nullptr ? attrs->activation : ir::Activation::None;
  if (auto problem = reference::unsupportedActivation(activation)) fail(*problem);

  NpuOperation npu;
  npu.kind = NpuOperationKind::Elementwise;
  npu.ofm = ofm;
  npu.ofm.zeroPoint = out.quantization.zeroPoint();
  // The IFM must cover the OFM; IFM2 may broadcast.
  if (covers(input0, ofm) && broadcastsTo(input1, ofm)) {
    npu.ifm = input0, npu.ifm2 = input1;
    npu.ifm.zeroPoint = a->quantization.zeroPoint(),
    npu.ifm2.zeroPoint = b->quantization.zeroPoint();
  } else if (covers(input1, ofm) && broadcastsTo(input0, ofm)) {
    npu.ifm = input1, npu.ifm2 = input0, npu.ifm2First = true;
    npu.ifm.zeroPoint = b->quantization.zeroPoint(),
    npu.ifm2.zeroPoint = a->quantization.zeroPoint();
  } else {
    fail("its inputs broadcast in a way the NPU cannot (one must have the output's shape)");
  }
  npu.globalScale = true;
  const auto shiftFor = [&fail](int totalShift) {
    if (totalShift < 0 || totalShift > 63) fail("its scales need a shift outside the NPU's 0-63");
    return totalShift;
  };
  if (minMax) {
    // TFLite compares the bytes themselves, whatever their quantisation;
    // the NPU compares values less their zero points, which is the same
    // only when every operand shares the output's zero point and scale
    // (then the output stage's scale is 1).
    for (const ir::Tensor* t : {a, b}) {
      if (t->quantization.zeroPoint() != out.quantization.zeroPoint() ||
          t->quantization.scales != out.quantization.scales) {
        fail(
            "its inputs are quantised differently from its output, and TFLite compares the raw "
            "bytes, which the NPU's comparison of rescaled values cannot match");
      }
    }
    npu.subKind = op.type == ir::OpType::Minimum ? LOUPE_ETHOSU_elementwise_mode_MIN
                                                 : LOUPE_ETHOSU_elementwise_mode_MAX;
    npu.ofmScale = 1;
    npu.ofmShift = 0;
    npu.activationMin = -128, npu.activationMax = 127;
  } else if (op.type == ir::OpType::Mul) {
    const loupe_mul_params p = reference::mulParams(*a, *b, out, activation);
    npu.subKind = LOUPE_ETHOSU_elementwise_mode_MUL;
    npu.ofmScale = static_cast<std::uint32_t>(p.output_multiplier);
    npu.ofmShift = shiftFor(31 - p.output_shift);
    npu.activationMin = p.act_min, npu.activationMax = p.act_max;
  } else {
    if (auto problem = reference::checkAddSubScales(op.type, *a, *b, out)) fail(*problem);
    const loupe_add_sub_params p = reference::addSubParams(op.type, *a, *b, out, activation);
    npu.subKind = op.type == ir::OpType::Add ? LOUPE_ETHOSU_elementwise_mode_ADD
                                             : LOUPE_ETHOSU_elementwise_mode_SUB;
    // The operand of the larger scale has TFLite's multiplier one half:
    // the NPU halves it; the other (the first operand, OPA, or the second,
    // OPB) is multiplied by its 32-bit scale.
    constexpr std::int32_t kHalf = 1 << 30;
    const bool firstIsHalf = p.input1_multiplier == kHalf && p.input1_shift == 0;
    const bool secondIsHalf = p.input2_multiplier == kHalf && p.input2_shift == 0;
    if (!firstIsHalf && !secondIsHalf) fail("neither input has the larger scale's multiplier");
    const bool scaleFirst = !firstIsHalf;
    npu.ifmScaleMode =
        scaleFirst ? LOUPE_ETHOSU_ifm_scale_mode_OPA_32 : LOUPE_ETHOSU_ifm_scale_mode_OPB_32;
    npu.opaScale =
        static_cast<std::uint32_t>(scaleFirst ? p.input1_multiplier : p.input2_multiplier);
    npu.opaShift = shiftFor(31 - p.left_shift - (scaleFirst ? p.input1_shift : p.input2_shift));
    npu.ofmScale = static_cast<std::uint32_t>(p.output_multiplier);
    npu.ofmShift = shiftFor(31 - p.output_shift);
    npu.activationMin = p.act_min, npu.activationMax = p.act_max;
  }
  BlockRequest request;
  request.kind = NpuBlockKind::Elementwise;
  request.ofm = {ofm.width, ofm.height, ofm.depth};
  request.ifm = request.ofm;
  const auto block = chooseBlockConfig(arch, request);
  if (!block) fail("no OFM block fits the SHRAM of " + std::string(arch.name));
  npu.block = *block;
  return npu;
}

}  // namespace loupe::ethosu
