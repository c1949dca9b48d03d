// REVERSE_V2: the input with the order of elements reversed along each axis
// the constant int32 axis operand lists (negative axes count from the end).
// TFLite Micro sorts the axes and refuses any set that is not one run of
// adjacent dimensions ([1, 0] is fine, [0, 2] and [1, 1] are not), reverses
// them as one flattened dimension (the same as reversing each), supports at
// most 6 dimensions and reads an empty axis list out of bounds; Loupe
// refuses what TFLM refuses and the empty list. The bytes move whatever the
// type: float32, int8, uint8, int16, int32, int64, bool.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/slab_copy.h"
#include "ops/strides.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// RuntimeShape's inline capacity, the rank TFLM's kernel accepts.
constexpr std::size_t kMaxRank = 6;

struct ReversePlan {
  std::vector<bool> reversed;  // per input dimension
  std::string problem;
};

ReversePlan planReverse(const ir::Graph& graph, const ir::Operator& op) {
  ReversePlan plan;
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* axisTensor = graph.input(op, 1);
  if (input == nullptr || axisTensor == nullptr) return plan.problem = "input and axis", plan;
  const auto axisValues = constantOperand(graph, op, 1);
  if (!axisValues || axisTensor->dtype != ir::DType::Int32 || axisTensor->shape.size() != 1) {
    return plan.problem =
               "a constant 1-D int32 axis operand (found " + tensorText(*axisTensor) + ")",
           plan;
  }
  const auto rank = static_cast<int>(input->shape.size());
  if (input->shape.size() > kMaxRank) {
    return plan.problem = "an input of at most " + std::to_string(kMaxRank) +
                          " dimensions, as TFLite Micro (found " + tensorText(*input) + ")",
           plan;
  }
  if (axisValues->empty() || static_cast<int>(axisValues->size()) > rank) {
    return plan.problem = "between 1 and " + std::to_string(rank) + " axes (found " +
                          std::to_string(axisValues->size()) + ")",
           plan;
  }
  std::vector<int> axes;
  for (std::int64_t value : *axisValues) {
    const auto axis = normalizedAxis(value, rank);
    if (!axis) {
      return plan.problem = "axis " + std::to_string(value) + " within " + tensorText(*input), plan;
    }
    axes.push_back(*axis);
  }
  std::sort(axes.begin(), axes.end());
  for (std::size_t k = 1; k < axes.size(); ++k) {
    if (axes[k] != axes[k - 1] + 1) {
      return plan.problem =
                 "axes that are adjacent dimensions, without repeats (TFLite Micro "
                 "reverses only one run of dimensions)",
             plan;
    }
  }
  plan.reversed.assign(input->shape.size(), false);
  for (int axis : axes) plan.reversed[static_cast<std::size_t>(axis)] = true;
  return plan;
}

std::optional<InferredOutput> reverseShape(const ir::Graph& graph, const ir::Operator& op) {
  return sameAsInput(graph, op);
}

std::optional<std::string> checkReverse(const ir::Graph& graph, const ir::Operator& op) {
  const ReversePlan plan = planReverse(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasCBufferType(input.dtype)) {
    return "input dtype " + reference::describeDtype(input.dtype) +
           " is not supported (expected float32, int8, uint8, int16, int32, int64 or bool)";
  }
  if (auto problem = checkOutput(output, input.dtype, input.shape)) return problem;
  return std::nullopt;
}

// Element by element: output index (i_0, ..., i_k) takes input index with
// i_d replaced by size_d - 1 - i_d on every reversed dimension.
void evalReverse(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ReversePlan plan = planReverse(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(input.dtype));
  const std::vector<std::int64_t> strides = rowMajorStrides(input.shape);
  const std::size_t rank = input.shape.size();
  const auto in = store.bytes(op.inputs[0]);
  auto out = store.mutableBytes(op.outputs[0]);
  const std::int64_t count = input.elementCount();
  for (std::int64_t o = 0; o < count; ++o) {
    std::int64_t from = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      const std::int64_t i = (o / strides[d]) % input.shape[d];
      from += (plan.reversed[d] ? input.shape[d] - 1 - i : i) * strides[d];
    }
    std::copy_n(in.begin() + from * elementSize, elementSize, out.begin() + o * elementSize);
  }
}

// One strided copy over the output in order; a reversed dimension starts at
// its last input position and steps backwards. Adjacent reversed dimensions
// merge into one backward run, untouched inner ones into forward runs.
tir::PrimFunc lowerReverse(const ir::Graph& graph, const ir::Operator& op,
                           const std::string& functionName) {
  const ReversePlan plan = planReverse(graph, op);
  const ir::Tensor& input = *graph.input(op, 0);
  const std::vector<std::int64_t> strides = rowMajorStrides(input.shape);
  std::vector<lowering::CopyAxis> axes;
  std::int64_t inBase = 0;
  for (std::size_t d = 0; d < input.shape.size(); ++d) {
    if (plan.reversed[d]) {
      axes.push_back({input.shape[d], -strides[d], strides[d]});
      inBase += (input.shape[d] - 1) * strides[d];
    } else {
      axes.push_back({input.shape[d], strides[d], strides[d]});
    }
  }
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(lowering::copyNest(in, tir::intImm(inBase), out, tir::intImm(0),
                                      lowering::simplifyCopyAxes(axes)));
}

const reference::Kernel kReverseV2Kernel{ir::OpType::ReverseV2, checkReverse, evalReverse};

}  // namespace

extern const OperatorDefinition kReverseV2Definition{
    .type = ir::OpType::ReverseV2,
    .dtypes =
        "float32, int8, uint8, int16, int32, int64, bool (bytes are moved); axis constant "
        "int32",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::ReverseV2Options>(),
               .maxVersion = 3},
    .shape = reverseShape,
    .kernel = &kReverseV2Kernel,
    .lower = lowerReverse,
};

}  // namespace loupe::ops
