// SLICE: size[d] elements of each dimension d from begin[d] on (size -1:
// to the end), begin and size constant. The bytes move whatever their type.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "ops/strides.h"

namespace loupe::ops {

namespace {

struct SlicePlan {
  std::vector<std::int64_t> begin;
  ir::Shape shape;  // the output's
  std::string problem;
};

SlicePlan planSlice(const ir::Graph& graph, const ir::Operator& op) {
  SlicePlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  const auto begin = constantOperand(graph, op, 1);
  const auto size = constantOperand(graph, op, 2);
  if (input == nullptr) return plan.problem = "an input", plan;
  if (!begin || !size) return plan.problem = "constant begin and size operands", plan;
  const std::size_t rank = input->shape.size();
  if (begin->size() != rank || size->size() != rank) {
    return plan.problem = "begin and size with one value per dimension of " + tensorText(*input),
           plan;
  }
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t from = (*begin)[d];
    const std::int64_t count = (*size)[d] == -1 ? input->shape[d] - from : (*size)[d];
    if (from < 0 || count < 0 || from + count > input->shape[d]) {
      return plan.problem = "a slice within " + tensorText(*input) + " (dimension " +
                            std::to_string(d) + ": begin " + std::to_string(from) + ", size " +
                            std::to_string((*size)[d]) + ")",
             plan;
    }
    plan.begin.push_back(from);
    plan.shape.push_back(static_cast<std::int32_t>(count));
  }
  return plan;
}

std::optional<InferredOutput> sliceShape(const ir::Graph& graph, const ir::Operator& op) {
  const SlicePlan plan = planSlice(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.shape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkSlice(const ir::Graph& graph, const ir::Operator& op) {
  const SlicePlan plan = planSlice(graph, op);
  if (!plan.problem.empty()) return plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasCBufferType(input.dtype)) {
    return "element type " + std::string(ir::dtypeName(input.dtype)) + " is not supported";
  }
  if (output.dtype != input.dtype || output.shape != plan.shape) {
    return "output '" + output.name + "' is " + tensorText(output) + "; expected " +
           std::string(ir::dtypeName(input.dtype)) + ir::shapeToString(plan.shape);
  }
  return std::nullopt;
}

void evalSlice(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const SlicePlan plan = planSlice(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const std::size_t elementSize = ir::dtypeSize(input.dtype);
  const auto inStrides = rowMajorStrides(input.shape);
  const std::size_t rank = plan.shape.size();
  auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  std::vector<std::int64_t> index(rank, 0);
  const std::int64_t count = ir::elementCount(plan.shape);
  for (std::int64_t o = 0; o < count; ++o) {
    std::int64_t from = 0;
    for (std::size_t d = 0; d < rank; ++d) from += (plan.begin[d] + index[d]) * inStrides[d];
    std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(from * elementSize), elementSize,
                out.begin() + static_cast<std::ptrdiff_t>(o * elementSize));
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < plan.shape[d]) break;
      index[d] = 0;
    }
  }
}

tir::PrimFunc lowerSlice(const ir::Graph& graph, const ir::Operator& op,
                         const std::string& functionName) {
  const SlicePlan plan = planSlice(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const auto inStrides = rowMajorStrides(input.shape);
  const auto outStrides = rowMajorStrides(plan.shape);
  std::vector<lowering::CopyAxis> axes;
  std::int64_t base = 0;
  for (std::size_t d = 0; d < plan.shape.size(); ++d) {
    axes.push_back({plan.shape[d], inStrides[d], outStrides[d]});
    base += plan.begin[d] * inStrides[d];
  }
  lowering::FunctionBuilder fb(graph, op, functionName);
  tir::Buffer in = fb.input(op.inputs[0], "input");
  tir::Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(lowering::copyNest(in, tir::intImm(base), out, tir::intImm(0),
                                      lowering::simplifyCopyAxes(axes)));
}

const reference::Kernel kSliceKernel{ir::OpType::Slice, checkSlice, evalSlice};

}  // namespace

extern const OperatorDefinition kSliceDefinition{
    .type = ir::OpType::Slice,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool (bytes are moved)",
    .import = {.minInputs = 3,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::SliceOptions>(),
               .maxVersion = 6},
    .shape = sliceShape,
    .kernel = &kSliceKernel,
    .lower = lowerSlice,
};

}  // namespace loupe::ops
