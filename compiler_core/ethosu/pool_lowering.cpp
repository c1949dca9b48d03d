#include "ethosu/pool_lowering.h"

#include <string>
#include <variant>

#include "ethosu/window_kernel.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ethosu {

NpuOperation lowerPool(const ir::Graph& graph, const ir::Operator& op, const NpuArchitecture& arch,
                       const NpuFeatureMap& ifm, const NpuFeatureMap& ofm) {
  const auto fail = [&op](const std::string& why) {
    throw NpuLoweringError("operator " + std::to_string(op.index) + " (" + op.typeName() +
                           "): " + why);
  };
  if (op.type != ir::OpType::AveragePool2D && op.type != ir::OpType::MaxPool2D) {
    fail("is not a pool");
  }
  const auto* attrs = std::get_if<ir::Pool2DAttrs>(&op.attributes);
  const ir::Tensor* in = graph.input(op, 0);
  if (attrs == nullptr || in == nullptr) fail("carries no pool attributes or input");
  const ir::Tensor& out = graph.output(op, 0);
  for (const ir::Tensor* t : {in, &out}) {
    if (auto problem = notInt8PerTensor(t == in ? "input" : "output", *t)) fail(*problem);
  }
  if (in->quantization.scale() != out.quantization.scale() ||
      in->quantization.zeroPoint() != out.quantization.zeroPoint()) {
    fail("its input and output are quantised differently");
  }
  if (ifm.depth != ofm.depth) fail("its input and output depths differ");
  NpuOperation npu;
  npu.kind = NpuOperationKind::Pool;
  npu.subKind = op.type == ir::OpType::MaxPool2D ? LOUPE_ETHOSU_pooling_mode_MAX
                                                 : LOUPE_ETHOSU_pooling_mode_AVERAGE;
  npu.ifm = ifm;
  npu.ofm = ofm;
  npu.ifm.zeroPoint = in->quantization.zeroPoint();
  npu.ofm.zeroPoint = out.quantization.zeroPoint();
  try {
    npu.kernel =
        windowKernel(reference::windowGeometry(*attrs, ifm.height, ifm.width), ifm, ofm,
                     attrs->filterH, attrs->filterW, attrs->strideH, attrs->strideW, 1, 1, false);
  } catch (const std::invalid_argument& error) {
    fail(error.what());
  }
  if (auto problem = reference::unsupportedActivation(attrs->activation)) fail(*problem);
  const reference::IntRange range = reference::quantizedActivationRange(attrs->activation, out);
  npu.activationMin = range.min;
  npu.activationMax = range.max;
  BlockRequest request;
  request.kind = NpuBlockKind::Pooling;
  request.ofm = {ofm.width, ofm.height, ofm.depth};
  request.ifm = {ifm.width, ifm.height, ifm.depth};
  request.kernelWidth = npu.kernel.dilatedWidth();
  request.kernelHeight = npu.kernel.dilatedHeight();
  request.strideX = npu.kernel.strideX;
  request.strideY = npu.kernel.strideY;
  request.scaled = false;
  const auto block = chooseBlockConfig(arch, request);
  if (!block) fail("no OFM block fits the SHRAM of " + std::string(arch.name));
  npu.block = *block;
  return npu;
}

}  // namespace loupe::ethosu
