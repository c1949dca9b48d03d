#include "ethosu/concatenation_lowering.h"

#include <string>
#include <variant>

#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ethosu {

LoweredOperation lowerConcatenation(const ir::Graph& graph, const ir::Operator& op,
                                    const NpuArchitecture& arch,
                                    const std::vector<NpuFeatureMap>& inputs,
                                    const NpuFeatureMap& output) {
  const auto fail = [&op](const std::string& why) {
    throw NpuLoweringError("operator " + std::to_string(op.index) + " (" + op.typeName() +
                           "): " + why);
  };
  const auto* attrs = std::get_if<ir::ConcatenationAttrs>(&op.attributes);
  if (op.type != ir::OpType::Concatenation || attrs == nullptr) fail("is not a concatenation");
  if (inputs.size() != op.inputs.size() || inputs.empty()) fail("has no inputs to copy");
  const ir::Tensor& out = graph.output(op, 0);
  if (auto problem = notInt8PerTensor("output", out)) fail(*problem);
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const ir::Tensor& in = graph.tensor(op.inputs[i]);
    if (in.isConstant) fail("input " + std::to_string(i) + " is a constant");
    if (notInt8PerTensor("input", in) || in.quantization.scale() != out.quantization.scale() ||
        in.quantization.zeroPoint() != out.quantization.zeroPoint()) {
      fail(reference::describeTensor("input " + std::to_string(i), in) +
           " is not quantised like the output (the NPU copies the bytes)");
    }
  }
  const int rank = static_cast<int>(out.shape.size());
  const int axis = attrs->axis < 0 ? attrs->axis + rank : attrs->axis;
  // The axis in the NPU's 4-D NHWC view (shapes are padded on the left).
  const int axis4 = axis + 4 - rank;
  if (axis4 < 1 || axis4 > 3) fail("concatenates along the batch, which the NPU does not hold");
  if (output.nhcwb16) fail("its output is not NHWC");
  if (auto problem = reference::unsupportedActivation(attrs->activation)) fail(*problem);
  const reference::IntRange range = reference::quantizedActivationRange(attrs->activation, out);

  LoweredOperation lowered;
  std::uint64_t offset = 0;  // bytes from the output's start to the slice
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const NpuFeatureMap& ifm = inputs[i];
    if (ifm.nhcwb16) fail("input " + std::to_string(i) + " is not NHWC");
    NpuOperation copy;
    copy.kind = NpuOperationKind::Pool;
    copy.subKind = LOUPE_ETHOSU_pooling_mode_MAX;
    copy.ifm = ifm;
    copy.ifm.zeroPoint = 0;
    copy.ofm = output;
    copy.ofm.zeroPoint = 0;
    copy.ofm.height = ifm.height;
    copy.ofm.width = ifm.width;
    copy.ofm.depth = ifm.depth;
    copy.ofm.offset = output.offset + offset;
    const std::uint64_t extent = axis4 == 1   ? static_cast<std::uint64_t>(ifm.height)
                                 : axis4 == 2 ? static_cast<std::uint64_t>(ifm.width)
                                              : static_cast<std::uint64_t>(ifm.depth);
    offset += extent * (axis4 == 1 ? output.strideY : axis4 == 2 ? output.strideX : output.strideC);
    copy.activationMin = range.min;
    copy.activationMax = range.max;
    BlockRequest request;
    request.kind = NpuBlockKind::Pooling;
    request.ofm = {copy.ofm.width, copy.ofm.height, copy.ofm.depth};
    request.ifm = {ifm.width, ifm.height, ifm.depth};
    request.scaled = false;
    const auto block = chooseBlockConfig(arch, request);
    if (!block) fail("no OFM block fits the SHRAM of " + std::string(arch.name));
    copy.block = *block;
    if (i == 0) {
      lowered.operation = copy;
    } else {
      lowered.followers.push_back(copy);
    }
  }
  return lowered;
}

}  // namespace loupe::ethosu
