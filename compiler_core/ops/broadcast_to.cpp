// BROADCAST_TO: the input repeated to the shape the constant 1-D int32 or
// int64 `shape` operand gives, NumPy style: the input's dimensions align
// with the last ones of the shape, and each is either equal to its
// counterpart or 1 (repeated). As TFLite Micro: the shape must be constant,
// at most 5 dimensions, and the output must already have that shape. TFLM
// moves any fixed-size type; Loupe those it stores (float32, int8, uint8,
// int16, int32, int64, bool).
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// TFLM's kMaxDims for this kernel (TFLite allows 8).
constexpr std::size_t kBroadcastMaxRank = 5;

struct BroadcastPlan {
  ir::Shape outputShape;
  // Per output dimension: the input's element stride along it, 0 where the
  // input repeats (a dimension of 1, or one the input does not have).
  std::vector<std::int64_t> inStrides;
  std::string problem;
};

BroadcastPlan planBroadcast(const ir::Graph& graph, const ir::Operator& op) {
  BroadcastPlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* shapeTensor = graph.input(op, 1);
  if (input == nullptr || shapeTensor == nullptr) return plan.problem = "input and shape", plan;
  const auto target = constantOperand(graph, op, 1);
  if (!target || shapeTensor->shape.size() != 1) {
    return plan.problem = "a constant 1-D int32 or int64 shape operand, as TFLite Micro (found " +
                          tensorText(*shapeTensor) + ")",
           plan;
  }
  const std::size_t rank = target->size();
  const std::size_t inRank = input->shape.size();
  if (rank > kBroadcastMaxRank) {
    return plan.problem = "a shape of at most " + std::to_string(kBroadcastMaxRank) +
                          " dimensions, as TFLite Micro (found " + std::to_string(rank) + ")",
           plan;
  }
  if (inRank > rank) {
    return plan.problem = "a shape of at least the rank of " + tensorText(*input), plan;
  }
  plan.inStrides.assign(rank, 0);
  std::int64_t stride = 1;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t d = rank - 1 - k;  // output dimension, from the last
    const std::int64_t size = (*target)[d];
    if (size < 0) return plan.problem = "a shape of non-negative sizes", plan;
    if (k < inRank) {
      const std::int64_t inSize = input->shape[inRank - 1 - k];
      if (inSize != 1 && inSize != size) {
        return plan.problem = tensorText(*input) + " to broadcast to the shape " +
                              ir::shapeToString(ir::Shape(target->begin(), target->end())),
               plan;
      }
      if (inSize != 1) plan.inStrides[d] = stride;
      stride *= inSize;
    }
  }
  for (std::int64_t size : *target) plan.outputShape.push_back(static_cast<std::int32_t>(size));
  return plan;
}

std::optional<InferredOutput> broadcastToShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input != nullptr && !constantOperand(graph, op, 1)) return std::nullopt;
  const BroadcastPlan plan = planBroadcast(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {input->dtype});
}

std::optional<std::string> checkBroadcastTo(const ir::Graph& graph, const ir::Operator& op) {
  const BroadcastPlan plan = planBroadcast(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasCBufferType(input.dtype)) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32, int8, uint8, int16, int32, int64 or bool)";
  }
  if (auto problem = checkOutput(output, input.dtype, plan.outputShape)) return problem;
  return std::nullopt;
}

// Element by element: split the output index into coordinates and keep
// those of the input's dimensions that are not 1.
void evalBroadcastTo(const ir::Graph& graph, const ir::Operator& op,
                     reference::TensorStore& store) {
  const BroadcastPlan plan = planBroadcast(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(input.dtype));
  const std::size_t rank = plan.outputShape.size();
  const std::size_t inRank = input.shape.size();
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  const std::int64_t count = ir::elementCount(plan.outputShape);
  for (std::int64_t o = 0; o < count; ++o) {
    std::int64_t rest = o, from = 0, inStride = 1;
    for (std::size_t k = 0; k < rank; ++k) {
      const std::int64_t size = plan.outputShape[rank - 1 - k];
      const std::int64_t coordinate = rest % size;
      rest /= size;
      if (k < inRank) {
        const std::int64_t inSize = input.shape[inRank - 1 - k];
        if (inSize != 1) from += coordinate * inStride;
        inStride *= inSize;
      }
    }
    std::copy_n(in.begin() + from * elementSize, elementSize, out.begin() + o * elementSize);
  }
}

// One strided copy over the output in order, standing still in the input
// along the repeated dimensions.
tir::PrimFunc lowerBroadcastTo(const ir::Graph& graph, const ir::Operator& op,
                               const std::string& functionName) {
  const BroadcastPlan plan = planBroadcast(graph, op);
  std::vector<lowering::CopyAxis> axes(plan.outputShape.size());
  std::int64_t outStride = 1;
  for (std::size_t d = axes.size(); d-- > 0;) {
    axes[d] = {plan.outputShape[d], plan.inStrides[d], outStride};
    outStride *= plan.outputShape[d];
  }
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(lowering::copyNest(in, tir::intImm(0), out, tir::intImm(0),
                                      lowering::simplifyCopyAxes(axes)));
}

const reference::Kernel kBroadcastToKernel{ir::OpType::BroadcastTo, checkBroadcastTo,
                                           evalBroadcastTo};

}  // namespace

extern const OperatorDefinition kBroadcastToDefinition{
    .type = ir::OpType::BroadcastTo,
    .dtypes =
        "float32, int8, uint8, int16, int32, int64, bool (bytes are moved); shape constant "
        "int32 or int64",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::BroadcastToOptions>(),
               .maxVersion = 3},
    .shape = broadcastToShape,
    .kernel = &kBroadcastToKernel,
    .lower = lowerBroadcastTo,
};

}  // namespace loupe::ops
