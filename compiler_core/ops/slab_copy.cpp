#include "ops/slab_copy.h"

#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/output_check.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

std::int64_t productOf(const ir::Shape& shape, std::size_t begin, std::size_t end) {
  std::int64_t product = 1;
  for (std::size_t d = begin; d < end && d < shape.size(); ++d) product *= shape[d];
  return product;
}

void evalSlabCopy(const ir::Graph& graph, const ir::Operator& op, const SlabCopy& copy,
                  reference::TensorStore& store) {
  for (const Slab& slab : copy.slabs) {
    const ir::Tensor& input = graph.tensor(op.inputs[slab.inputSlot]);
    const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(input.dtype));
    const std::int64_t run = slab.length * copy.inner * elementSize;
    auto in = store.bytes(op.inputs[slab.inputSlot]);
    auto out = store.mutableBytes(op.outputs[slab.outputSlot]);
    for (std::int64_t o = 0; o < copy.outer; ++o) {
      const std::int64_t from = ((o * slab.inAxisLength) + slab.inStart) * copy.inner * elementSize;
      const std::int64_t to = ((o * slab.outAxisLength) + slab.outStart) * copy.inner * elementSize;
      std::copy_n(in.begin() + from, run, out.begin() + to);
    }
  }
}

tir::PrimFunc lowerSlabCopy(const ir::Graph& graph, const ir::Operator& op, const SlabCopy& copy,
                            const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  // Parameters in call order: the inputs the slabs read (not SPLIT's axis or
  // SPLIT_V's sizes, which only shaped the plan), then every output.
  std::vector<tir::Buffer> inputs(op.inputs.size()), outputs;
  for (std::size_t slot = 0; slot < op.inputs.size(); ++slot) {
    const bool read = std::any_of(copy.slabs.begin(), copy.slabs.end(),
                                  [&](const Slab& slab) { return slab.inputSlot == slot; });
    if (read) inputs[slot] = fb.input(op.inputs[slot], "input" + std::to_string(slot));
  }
  for (std::size_t slot = 0; slot < op.outputs.size(); ++slot) {
    outputs.push_back(fb.param(op.outputs[slot], "output" + std::to_string(slot), true));
  }
  std::vector<tir::Stmt> nests;
  for (const Slab& slab : copy.slabs) {
    const std::int64_t run = slab.length * copy.inner;
    const auto axes = lowering::simplifyCopyAxes(
        {{copy.outer, slab.inAxisLength * copy.inner, slab.outAxisLength * copy.inner},
         {run, 1, 1}});
    nests.push_back(lowering::copyNest(
        inputs[slab.inputSlot], tir::intImm(slab.inStart * copy.inner), outputs[slab.outputSlot],
        tir::intImm(slab.outStart * copy.inner), axes));
  }
  return fb.finish(tir::seq(std::move(nests)));
}

std::optional<std::string> checkSlabPlan(const ir::Graph& graph, const ir::Operator& op,
                                         const SlabPlan& plan) {
  if (!plan.problem.empty()) return plan.problem;
  if (!hasCBufferType(plan.dtype)) {
    return "element type " + std::string(ir::dtypeName(plan.dtype)) +
           " is not supported (expected float32, int8, uint8, int16, int32, int64 or bool)";
  }
  if (plan.outputShapes.size() != op.outputs.size()) {
    return "the operator has " + std::to_string(op.outputs.size()) + " outputs; expected " +
           std::to_string(plan.outputShapes.size());
  }
  for (std::size_t slot = 0; slot < op.outputs.size(); ++slot) {
    const ir::Tensor& output = graph.output(op, slot);
    if (output.dtype != plan.dtype || output.shape != plan.outputShapes[slot]) {
      return "output '" + output.name + "' is " + tensorText(output) + "; expected " +
             std::string(ir::dtypeName(plan.dtype)) + ir::shapeToString(plan.outputShapes[slot]);
    }
  }
  return std::nullopt;
}

std::optional<std::string> checkFloat32OrInt8Copy(const ir::Graph& graph, const ir::Operator& op,
                                                  const ir::Shape& outputShape) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (input.dtype != ir::DType::Float32 && input.dtype != ir::DType::Int8) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  if (auto problem = checkOutput(output, input.dtype, outputShape)) return problem;
  return std::nullopt;
}

bool hasCBufferType(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::Float32:
    case ir::DType::Int8:
    case ir::DType::UInt8:
    case ir::DType::Int16:
    case ir::DType::Int32:
    case ir::DType::Int64:
    case ir::DType::Bool:
      return true;
    default:
      return false;
  }
}

}  // namespace loupe::ops
