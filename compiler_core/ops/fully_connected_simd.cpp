#include <cstdint>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "reference/quantized_params.h"

namespace loupe::lowering {

using namespace tir;

std::optional<PrimFunc> lowerFullyConnectedSimd(const ir::Graph& graph, const ir::Operator& op,
                                                const std::string& functionName, target::CpuIsa isa,
                                                const Schedule& /*schedule: no variants*/) {
  if (isa == target::CpuIsa::Scalar) return std::nullopt;
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& weights = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasInt8KernelOperands(input, weights, bias, output) ||
      weights.quantization.zeroPoint() != 0) {
    return std::nullopt;
  }
  const std::int64_t units = output.shape.back();
  const std::int64_t depth = weights.shape.back();
  if (units <= 0 || depth <= 0) return std::nullopt;
  const std::int64_t batches = output.elementCount() / units;

  const std::vector<reference::QuantizedMultiplier> multipliers =
      reference::fullyConnectedMultipliers(input, weights, output, static_cast<int>(units));
  std::vector<std::int32_t> mult, shift;
  for (const auto& m : multipliers) {
    // The kernels' requantisation takes a non-negative multiplier and a
    // shift a 32-bit shift can apply.
    if (m.multiplier < 0 || m.shift < -31 || m.shift > 30) return std::nullopt;
    mult.push_back(m.multiplier);
    shift.push_back(m.shift);
  }

  // The input zero point folded in: bias + input_offset * sum of the unit's
  // weights, in int32 wrap-around arithmetic as TFLite's int32 sum (the
  // kernels' SMLAD and VMLADAVA wrap the same way).
  const std::int64_t inputOffset = -input.quantization.zeroPoint();
  const std::vector<std::int64_t> sums = convFilterSums(weights, static_cast<int>(units));
  const std::vector<std::int32_t> biasValues =
      bias != nullptr ? tensorValues<std::int32_t>(*bias)
                      : std::vector<std::int32_t>(static_cast<std::size_t>(units), 0);
  std::vector<std::int32_t> accInit;
  for (std::size_t unit = 0; unit < sums.size(); ++unit) {
    const std::int64_t value = biasValues[unit] + inputOffset * sums[unit];
    accInit.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(value)));
  }
  const reference::IntRange range = reference::quantizedActivationRange(attrs.activation, output);

  FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w =
      fb.constant("weights", ScalarType::Int8,
                  simdFilterLayout(tensorValues<std::int8_t>(weights), static_cast<int>(units),
                                   static_cast<int>(depth), isa));
  const Buffer init = fb.constant("acc_init", ScalarType::Int32, accInit);
  const Buffer multiplier = fb.constant("multiplier", ScalarType::Int32, mult);
  const Buffer shiftTable = fb.constant("shift", ScalarType::Int32, shift);
  const Var b = loopVar("b");
  // Each batch row is one "pixel" whose patch is the row itself and whose
  // output channels are the units.
  return fb.finish(
      forLoop(b, 0, static_cast<int>(batches),
              evaluate(callIntrinsic(
                  std::string(convKernelName(isa)), ScalarType::Void,
                  {addressOf(in, refVar(b) * static_cast<int>(depth)), addressOf(w), intImm(depth),
                   intImm(units), addressOf(init), addressOf(multiplier), addressOf(shiftTable),
                   intImm(output.quantization.zeroPoint()), intImm(range.min), intImm(range.max),
                   addressOf(out, refVar(b) * static_cast<int>(units))}))));
}

}  // namespace loupe::lowering
