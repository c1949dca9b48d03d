// GATHER_ND(params, indices): each row of the last indices dimension (nd
// int32 coordinates, read at run time) picks one slice of params, the
// elements under its first nd dimensions. The output is
// indices.shape[:-1] + params.shape[nd:]. TFLite Micro runs float32 and int8
// params with nd at most 5, and bounds-checks only the flat position a row
// selects: the slice must lie within params, so a coordinate outside its
// dimension passes when the position it makes is still inside (as there),
// and a slice running past the end fails the operator (the reference
// throws, the generated C returns an error status before reading). The
// position is summed in 64 bits, so huge indices cannot wrap into range.
#include <cstring>
#include <stdexcept>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// TFLite Micro's limit on the coordinates per index row.
constexpr std::int64_t kMaxIndexDepth = 5;

struct GatherNdPlan {
  std::int64_t slices = 1;     // index rows: product of indices.shape[:-1]
  std::int64_t depth = 0;      // nd: coordinates per row, indices.shape[-1]
  std::int64_t sliceSize = 1;  // product of params.shape[nd:]
  std::int64_t paramsSize = 0;
  std::vector<std::int64_t> strides;  // elements per step of params dimension j < nd
  ir::Shape outputShape;
  std::string problem;
};

GatherNdPlan planGatherNd(const ir::Graph& graph, const ir::Operator& op) {
  GatherNdPlan plan;
  const ir::Tensor* params = graph.input(op, 0);
  const ir::Tensor* indices = graph.input(op, 1);
  if (params == nullptr || indices == nullptr) return plan.problem = "params and indices", plan;
  const std::size_t paramsRank = params->shape.size();
  const std::size_t indicesRank = indices->shape.size();
  if (paramsRank < 1 || indicesRank < 1) {
    return plan.problem = "params and indices of at least one dimension (found " +
                          tensorText(*params) + " and " + tensorText(*indices) + ")",
           plan;
  }
  plan.depth = indices->shape.back();
  if (plan.depth > static_cast<std::int64_t>(paramsRank) || plan.depth > kMaxIndexDepth) {
    return plan.problem = "index rows of at most " + std::to_string(kMaxIndexDepth) +
                          " coordinates and no more than the rank of " + tensorText(*params) +
                          " (found " + std::to_string(plan.depth) + ")",
           plan;
  }
  const auto depth = static_cast<std::size_t>(plan.depth);
  for (std::size_t d = 0; d < depth; ++d) {
    // TFLite Micro divides by these dimensions to find the strides.
    if (params->shape[d] == 0) {
      return plan.problem = "no empty indexed dimension in " + tensorText(*params), plan;
    }
    plan.strides.push_back(productOf(params->shape, d + 1, paramsRank));
  }
  plan.slices = productOf(indices->shape, 0, indicesRank - 1);
  plan.sliceSize = productOf(params->shape, depth, paramsRank);
  plan.paramsSize = params->elementCount();
  plan.outputShape.assign(indices->shape.begin(), indices->shape.end() - 1);
  plan.outputShape.insert(plan.outputShape.end(), params->shape.begin() + plan.depth,
                          params->shape.end());
  return plan;
}

std::optional<InferredOutput> gatherNdShape(const ir::Graph& graph, const ir::Operator& op) {
  const GatherNdPlan plan = planGatherNd(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkGatherNd(const ir::Graph& graph, const ir::Operator& op) {
  const GatherNdPlan plan = planGatherNd(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& params = *graph.input(op, 0);
  const ir::Tensor& indices = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (params.dtype != ir::DType::Float32 && params.dtype != ir::DType::Int8) {
    return "params dtype " + reference::describeDtype(params.dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  if (indices.dtype != ir::DType::Int32) {
    return "indices dtype " + reference::describeDtype(indices.dtype) +
           " is not supported (expected int32, as TFLite Micro)";
  }
  if (auto problem = checkOutput(output, params.dtype, plan.outputShape)) return problem;
  return std::nullopt;
}

void evalGatherNd(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const GatherNdPlan plan = planGatherNd(graph, op);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(graph.input(op, 0)->dtype));
  const auto params = store.bytes(op.inputs[0]);
  const auto* indices = store.data<std::int32_t>(op.inputs[1]);
  auto out = store.mutableBytes(op.outputs[0]);
  const std::int64_t run = plan.sliceSize * elementSize;
  for (std::int64_t row = 0; row < plan.slices; ++row) {
    std::int64_t position = 0;
    for (std::int64_t j = 0; j < plan.depth; ++j) {
      position += indices[row * plan.depth + j] * plan.strides[static_cast<std::size_t>(j)];
    }
    if (position < 0 || position + plan.sliceSize > plan.paramsSize) {
      throw std::out_of_range("#" + std::to_string(op.index) + " GATHER_ND: index row " +
                              std::to_string(row) + " selects position " +
                              std::to_string(position) + ", outside the " +
                              std::to_string(plan.paramsSize) + " params elements");
    }
    std::memcpy(out.data() + row * run, params.data() + position * elementSize,
                static_cast<std::size_t>(run));
  }
}

// for row: position = sum_j (int64) indices[row * nd + j] * stride_j; check
// position in [0, params - slice]; for k: out[row * slice + k] = params[position + k].
tir::PrimFunc lowerGatherNd(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  const GatherNdPlan plan = planGatherNd(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer params = fb.input(op.inputs[0], "params");
  // nd == 0 reads no index (each row takes all of params).
  const tir::Buffer indices = plan.depth > 0 ? fb.input(op.inputs[1], "indices") : nullptr;
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Var row = tir::makeVar("row"), k = tir::makeVar("k");
  const tir::Var wide = tir::makeVar("position64", tir::ScalarType::Int64);
  const tir::Var position = tir::makeVar("position");
  tir::Expr sum = tir::intImm(0, tir::ScalarType::Int64);
  for (std::int64_t j = 0; j < plan.depth; ++j) {
    const tir::Expr coordinate =
        tir::load(indices, tir::refVar(row) * tir::intImm(plan.depth) + tir::intImm(j));
    sum = sum + tir::cast(tir::ScalarType::Int64, coordinate) *
                    tir::intImm(plan.strides[static_cast<std::size_t>(j)], tir::ScalarType::Int64);
  }
  // Valid positions are [0, limit); the check's int32 argument is the
  // position when valid and -1 otherwise, so no int64 is narrowed unchecked.
  const std::int64_t limit = plan.paramsSize - plan.sliceSize + 1;
  const tir::Expr inside =
      tir::logicalAnd(tir::refVar(wide) >= tir::intImm(0, tir::ScalarType::Int64),
                      tir::refVar(wide) < tir::intImm(limit, tir::ScalarType::Int64));
  const tir::Expr checked =
      tir::select(inside, tir::cast(tir::ScalarType::Int32, tir::refVar(wide)), tir::intImm(-1));
  const tir::Stmt check = tir::evaluateChecked(tir::callIntrinsic(
      "loupe.check_index", tir::ScalarType::Int32, {checked, tir::intImm(limit)}));
  const tir::Stmt copy =
      tir::forLoop(k, tir::intImm(0), tir::intImm(plan.sliceSize),
                   tir::store(out, tir::refVar(row) * tir::intImm(plan.sliceSize) + tir::refVar(k),
                              tir::load(params, tir::refVar(position) + tir::refVar(k))));
  const tir::Stmt body = tir::let(
      wide, sum,
      tir::seq(
          {check, tir::let(position, tir::cast(tir::ScalarType::Int32, tir::refVar(wide)), copy)}));
  return fb.finish(tir::forLoop(row, tir::intImm(0), tir::intImm(plan.slices), body));
}

const reference::Kernel kGatherNdKernel{ir::OpType::GatherNd, checkGatherNd, evalGatherNd};

}  // namespace

extern const OperatorDefinition kGatherNdDefinition{
    .type = ir::OpType::GatherNd,
    .dtypes = "float32, int8 params; int32 indices",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::GatherNdOptions>(),
               .maxVersion = 5},
    .shape = gatherNdShape,
    .kernel = &kGatherNdKernel,
    .lower = lowerGatherNd,
};

}  // namespace loupe::ops
