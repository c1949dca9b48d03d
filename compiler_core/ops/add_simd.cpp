#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "reference/quantized_params.h"

namespace loupe::lowering {

using namespace tir;

std::optional<PrimFunc> lowerAddSimd(const ir::Graph& graph, const ir::Operator& op,
                                     const std::string& functionName, target::CpuIsa isa,
                                     const Schedule& /*schedule: no variants*/) {
  if (isa != target::CpuIsa::Mve) return std::nullopt;
  const auto& attrs = std::get<ir::ElementwiseAttrs>(op.attributes);
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  // Two int8 tensors of the output's shape, read in order: no broadcasting.
  if (input1.dtype != ir::DType::Int8 || input2.dtype != ir::DType::Int8 ||
      output.dtype != ir::DType::Int8 || input1.isConstant || input2.isConstant ||
      input1.shape != output.shape || input2.shape != output.shape) {
    return std::nullopt;
  }
  const loupe_add_sub_params p =
      reference::addSubParams(op.type, input1, input2, output, attrs.activation);
  FunctionBuilder fb(graph, op, functionName);
  const Buffer a = fb.param(op.inputs[0], "input1", false);
  const Buffer b = fb.param(op.inputs[1], "input2", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(evaluate(callIntrinsic(
      "loupe.mve.add_s8", ScalarType::Void,
      {addressOf(a), addressOf(b), intImm(output.elementCount()), intImm(p.input1_offset),
       intImm(p.input2_offset), intImm(p.output_offset), intImm(p.left_shift),
       intImm(p.input1_multiplier), intImm(p.input1_shift), intImm(p.input2_multiplier),
       intImm(p.input2_shift), intImm(p.output_multiplier), intImm(p.output_shift),
       intImm(p.act_min), intImm(p.act_max), addressOf(out)})));
}

}  // namespace loupe::lowering
