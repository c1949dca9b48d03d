// CONCATENATION -> TIR. Seen from the axis outwards, every input is `outer`
// contiguous slabs (its dimensions from the axis on) and every output row is
// those slabs side by side, so the function is one loop over the outer index
// with one flat copy per input inside; along the first axis (outer 1) the
// loop vanishes and each input is a single contiguous copy. Elements are
// moved, never converted: the reference kernel's check has already refused
// fused activations and inputs quantised differently from the output, as
// TFLite Micro does. Any element type moves (bool tensors as bytes).
#include <cstdint>
#include <string>
#include <vector>

#include "lowering/lowering_rule.h"
#include "lowering/strided_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::lowering {

using namespace tir;

PrimFunc lowerConcatenation(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  const auto& attrs = std::get<ir::ConcatenationAttrs>(op.attributes);
  const ir::Tensor& output = graph.output(op, 0);
  const std::size_t rank = output.shape.size();
  const auto axis =
      static_cast<std::size_t>(attrs.axis < 0 ? attrs.axis + static_cast<int>(rank) : attrs.axis);
  FunctionBuilder fb(graph, op, functionName);
  std::vector<Buffer> inputs;
  std::vector<std::int64_t> slabs;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const ir::Tensor& input = *graph.input(op, slot);
    inputs.push_back(fb.input(op.inputs[slot], "input" + std::to_string(slot)));
    slabs.push_back(reference::dimensionProduct(input.shape, axis, rank));
  }
  Buffer out = fb.param(op.outputs[0], "output", true);
  const std::int64_t outer = reference::dimensionProduct(output.shape, 0, axis);
  const std::int64_t row = reference::dimensionProduct(output.shape, axis, rank);
  Var o = loopVar("o");
  std::vector<Stmt> copies;
  std::int64_t offset = 0;
  for (std::size_t slot = 0; slot < inputs.size(); ++slot) {
    const Expr inBase = refVar(o) * static_cast<int>(slabs[slot]);
    const Expr outBase = refVar(o) * static_cast<int>(row) + static_cast<int>(offset);
    copies.push_back(
        copyNest(inputs[slot], inBase, out, outBase, simplifyCopyAxes({{slabs[slot], 1, 1}})));
    offset += slabs[slot];
  }
  return fb.finish(forLoop(o, 0, static_cast<int>(outer), seq(std::move(copies))));
}

}  // namespace loupe::lowering
