// TRANSPOSE -> TIR: a strided copy with one axis per output dimension, which
// reads input dimension perm[k]. Dimensions of length 1 drop out and output
// dimensions that are also adjacent, in order, in the input merge, so an
// NHWC -> NCHW transpose is a two-loop copy and an identity permutation one
// flat loop. The remaining loops are ordered by how far they step, the
// shortest-stepping one innermost, so consecutive iterations touch nearby
// elements in both buffers. The permutation is a constant (the reference
// kernel's check requires it); elements are moved whatever their type.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "lowering/lowering_rule.h"
#include "lowering/strided_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Row-major element strides of a shape.
std::vector<std::int64_t> rowMajorStrides(const ir::Shape& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
  return strides;
}

}  // namespace

PrimFunc lowerTranspose(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const std::vector<std::int64_t> perm = *reference::constantIntegers(*graph.input(op, 1));
  const std::vector<std::int64_t> inStrides = rowMajorStrides(input.shape);
  const std::vector<std::int64_t> outStrides = rowMajorStrides(output.shape);
  std::vector<CopyAxis> axes;
  for (std::size_t k = 0; k < output.shape.size(); ++k) {
    axes.push_back({output.shape[k], inStrides[static_cast<std::size_t>(perm[k])], outStrides[k]});
  }
  axes = simplifyCopyAxes(axes);
  // Largest combined step outermost; ties keep the output's order, which
  // writes the output sequentially.
  std::stable_sort(axes.begin(), axes.end(), [](const CopyAxis& a, const CopyAxis& b) {
    return a.inStride + a.outStride > b.inStride + b.outStride;
  });
  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.input(op.inputs[0], "input");
  Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(copyNest(in, 0, out, 0, axes));
}

}  // namespace loupe::lowering
