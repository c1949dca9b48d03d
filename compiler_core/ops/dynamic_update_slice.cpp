// DYNAMIC_UPDATE_SLICE: the operand with the update written over it from
// start indices read at run time: out = operand, then
// out[start + i] = update[i] for every index i of the update. The update has
// the operand's rank and no longer dimensions; the indices are an int32 or
// int64 vector of one start per dimension. As TFLite Micro does it
// (dynamic_update_slice.cc):
//  - each start is clamped to [0, operand dim - update dim] (in int64), so
//    the update always lies inside and nothing fails at run time;
//  - an update as large as the operand replaces it whatever the indices;
//  - an empty update leaves the operand's copy;
//  - the bytes move whatever their meaning (quantisation is not looked at);
//  - float32, int8, int16 and int32 elements, at most 6 dimensions (the
//    size of TFLM's index arrays).
#include <algorithm>
#include <cstring>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "lowering/strided_copy.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/strides.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// TFLite Micro's start indices live in arrays of RuntimeShape's small size.
constexpr std::size_t kMaxRank = 6;

// What the operand, update and indices shapes require, or the problem.
std::string updateSliceProblem(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* operand = graph.input(op, 0);
  const ir::Tensor* update = graph.input(op, 1);
  const ir::Tensor* indices = graph.input(op, 2);
  if (operand == nullptr || update == nullptr || indices == nullptr) {
    return "an operand, an update and start indices";
  }
  const std::size_t rank = operand->shape.size();
  if (rank > kMaxRank) {
    return "an operand of at most 6 dimensions (TFLite Micro's limit), found " +
           tensorText(*operand);
  }
  if (update->shape.size() != rank) {
    return "an update of the operand's rank, found " + tensorText(*update) + " for " +
           tensorText(*operand);
  }
  for (std::size_t d = 0; d < rank; ++d) {
    if (update->shape[d] > operand->shape[d]) {
      return "an update no larger than the operand in each dimension, found " +
             tensorText(*update) + " for " + tensorText(*operand);
    }
  }
  if (indices->shape.size() != 1 || static_cast<std::size_t>(indices->shape[0]) != rank) {
    return "a vector of " + std::to_string(rank) + " start indices, found " + tensorText(*indices);
  }
  return {};
}

std::optional<InferredOutput> dynamicUpdateSliceShape(const ir::Graph& graph,
                                                      const ir::Operator& op) {
  if (std::string problem = updateSliceProblem(graph, op); !problem.empty()) {
    return shapeProblem(problem);
  }
  const ir::Tensor& operand = *graph.input(op, 0);
  return shaped(operand.shape, {operand.dtype});
}

std::optional<std::string> checkDynamicUpdateSlice(const ir::Graph& graph, const ir::Operator& op) {
  if (std::string problem = updateSliceProblem(graph, op); !problem.empty()) {
    return "needs " + problem;
  }
  const ir::Tensor& operand = *graph.input(op, 0);
  const ir::Tensor& update = *graph.input(op, 1);
  const ir::Tensor& indices = *graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (operand.dtype != ir::DType::Float32 && operand.dtype != ir::DType::Int8 &&
      operand.dtype != ir::DType::Int16 && operand.dtype != ir::DType::Int32) {
    return "operand dtype " + reference::describeDtype(operand.dtype) +
           " is not supported (expected float32, int8, int16 or int32, as TFLite Micro)";
  }
  if (update.dtype != operand.dtype) {
    return "update " + tensorText(update) + " must have the operand's type";
  }
  if (indices.dtype != ir::DType::Int32 && indices.dtype != ir::DType::Int64) {
    return "start indices dtype " + reference::describeDtype(indices.dtype) +
           " is not supported (expected int32 or int64)";
  }
  if (output.dtype != operand.dtype || output.shape != operand.shape) {
    return "output " + tensorText(output) + "; expected " +
           std::string(ir::dtypeName(operand.dtype)) + ir::shapeToString(operand.shape);
  }
  return std::nullopt;
}

// The start of the update in dimension d, clamped as TFLM clamps it.
std::int64_t clampedStart(std::int64_t index, std::int64_t operandDim, std::int64_t updateDim) {
  return std::min(std::max<std::int64_t>(0, index), operandDim - updateDim);
}

void evalDynamicUpdateSlice(const ir::Graph& graph, const ir::Operator& op,
                            reference::TensorStore& store) {
  const ir::Tensor& operand = *graph.input(op, 0);
  const ir::Tensor& update = *graph.input(op, 1);
  const ir::Tensor& indices = *graph.input(op, 2);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(operand.dtype));
  const auto in = store.bytes(op.inputs[0]);
  const auto source = store.bytes(op.inputs[1]);
  auto out = store.mutableBytes(op.outputs[0]);
  if (update.elementCount() == operand.elementCount()) {
    std::copy(source.begin(), source.end(), out.begin());
    return;
  }
  std::copy(in.begin(), in.end(), out.begin());
  if (update.elementCount() == 0) return;

  const std::size_t rank = operand.shape.size();
  const auto outStrides = rowMajorStrides(operand.shape);
  std::int64_t base = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t index = indices.dtype == ir::DType::Int64
                                   ? store.data<std::int64_t>(op.inputs[2])[d]
                                   : store.data<std::int32_t>(op.inputs[2])[d];
    base += clampedStart(index, operand.shape[d], update.shape[d]) * outStrides[d];
  }
  // Rows of the update's last dimension, in row-major order.
  const std::int64_t row = update.shape[rank - 1];
  const std::int64_t rows = update.elementCount() / row;
  std::vector<std::int64_t> position(rank, 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t to = base;
    for (std::size_t d = 0; d + 1 < rank; ++d) to += position[d] * outStrides[d];
    std::memcpy(out.data() + to * elementSize, source.data() + r * row * elementSize,
                static_cast<std::size_t>(row * elementSize));
    for (std::size_t d = rank - 1; d-- > 0;) {
      if (++position[d] < update.shape[d]) break;
      position[d] = 0;
    }
  }
}

// out = operand; then, with start_d = min(max(indices[d], 0), operand_d -
// update_d) for the dimensions where the update is shorter (constant indices
// fold), out[sum(start_d * stride_d) + i] = update[i] over the update's
// index space.
tir::PrimFunc lowerDynamicUpdateSlice(const ir::Graph& graph, const ir::Operator& op,
                                      const std::string& functionName) {
  const ir::Tensor& operand = *graph.input(op, 0);
  const ir::Tensor& update = *graph.input(op, 1);
  const ir::Tensor& indices = *graph.input(op, 2);
  const bool replaces = update.elementCount() == operand.elementCount();
  const bool writes = !replaces && update.elementCount() > 0;
  const auto constantStarts = reference::constantIntegers(indices);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = replaces ? nullptr : fb.input(op.inputs[0], "operand");
  const tir::Buffer source = fb.input(op.inputs[1], "update");
  const tir::Buffer starts =
      writes && !constantStarts ? fb.input(op.inputs[2], "start_indices") : nullptr;
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  auto flatCopy = [&](const tir::Buffer& from, std::int64_t count) {
    return lowering::copyNest(from, tir::intImm(0), out, tir::intImm(0),
                              lowering::simplifyCopyAxes({{count, 1, 1}}));
  };
  if (replaces) return fb.finish(flatCopy(source, update.elementCount()));
  const tir::Stmt copyOperand = flatCopy(in, operand.elementCount());
  if (!writes) return fb.finish(copyOperand);

  const std::size_t rank = operand.shape.size();
  const auto outStrides = rowMajorStrides(operand.shape);
  const auto updateStrides = rowMajorStrides(update.shape);
  const tir::ScalarType indexType =
      indices.dtype == ir::DType::Int64 ? tir::ScalarType::Int64 : tir::ScalarType::Int32;
  std::vector<std::pair<tir::Var, tir::Expr>> bindings;
  tir::Expr base = 0;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t limit = operand.shape[d] - update.shape[d];
    // Where the update spans the dimension its start can only be 0.
    if (limit == 0) continue;
    if (constantStarts) {
      const std::int64_t start =
          clampedStart((*constantStarts)[d], operand.shape[d], update.shape[d]);
      base = base + tir::intImm(start * outStrides[d]);
      continue;
    }
    // index_d = indices[d]; start_d = (int32)min(max(index_d, 0), limit).
    std::string indexName = "index", startName = "start";
    indexName += std::to_string(d);
    startName += std::to_string(d);
    const tir::Var index = tir::makeVar(indexName, indexType);
    const tir::Var start = tir::makeVar(startName);
    bindings.emplace_back(index, tir::load(starts, tir::intImm(static_cast<std::int64_t>(d))));
    bindings.emplace_back(
        start, tir::cast(tir::ScalarType::Int32,
                         tir::minExpr(tir::maxExpr(tir::refVar(index), tir::intImm(0, indexType)),
                                      tir::intImm(limit, indexType))));
    base = base + tir::refVar(start) * tir::intImm(outStrides[d]);
  }
  std::vector<lowering::CopyAxis> axes;
  for (std::size_t d = 0; d < rank; ++d) {
    axes.push_back({update.shape[d], updateStrides[d], outStrides[d]});
  }
  tir::Stmt write =
      lowering::copyNest(source, tir::intImm(0), out, base, lowering::simplifyCopyAxes(axes));
  for (std::size_t b = bindings.size(); b-- > 0;) {
    write = tir::let(bindings[b].first, bindings[b].second, write);
  }
  return fb.finish(tir::seq({copyOperand, write}));
}

const reference::Kernel kDynamicUpdateSliceKernel{ir::OpType::DynamicUpdateSlice,
                                                  checkDynamicUpdateSlice, evalDynamicUpdateSlice};

}  // namespace

// Versions: 2 int64 indices, 3 float16 (refused, as TFLM), 4 int16.
extern const OperatorDefinition kDynamicUpdateSliceDefinition{
    .type = ir::OpType::DynamicUpdateSlice,
    .dtypes = "float32, int8, int16, int32 (bytes are moved); int32 or int64 start indices",
    .import = {.minInputs = 3,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::DynamicUpdateSliceOptions>(),
               .maxVersion = 4},
    .shape = dynamicUpdateSliceShape,
    .kernel = &kDynamicUpdateSliceKernel,
    .lower = lowerDynamicUpdateSlice,
};

}  // namespace loupe::ops
