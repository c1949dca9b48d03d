// GATHER: slices of the params along `axis` picked by int32 indices read at
// run time, with TFLite's batch_dims (the leading dimensions params and
// indices share). The output is params.shape[:axis] + indices.shape[batch_dims:]
// + params.shape[axis+1:]. An index outside the axis fails the operator, as
// in TFLite Micro: the reference throws, the generated C returns an error
// status before reading.
#include <cstring>
#include <stdexcept>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/operator_options.h"
#include "ops/options_reading.h"
#include "ops/output_check.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

ir::Attributes readGatherOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::GatherOptions>(op)) {
    a.set("axis", o->axis()).set("batch_dims", o->batch_dims());
  }
  return a;
}

struct GatherPlan {
  std::int64_t batches = 1;   // product of params.shape[:batch_dims]
  std::int64_t outer = 1;     // product of params.shape[batch_dims:axis]
  std::int64_t axisSize = 1;  // params.shape[axis]
  std::int64_t inner = 1;     // product of params.shape[axis+1:]
  std::int64_t coords = 1;    // product of indices.shape[batch_dims:]
  ir::Shape outputShape;
  std::string problem;
};

GatherPlan planGather(const ir::Graph& graph, const ir::Operator& op) {
  GatherPlan plan;
  const ir::Tensor* params = graph.input(op, 0);
  const ir::Tensor* indices = graph.input(op, 1);
  if (params == nullptr || indices == nullptr) return plan.problem = "params and indices", plan;
  const int paramsRank = static_cast<int>(params->shape.size());
  const int indicesRank = static_cast<int>(indices->shape.size());
  const auto axis = normalizedAxis(optionOf(op, "axis"), paramsRank);
  std::int64_t batchDims = optionOf(op, "batch_dims");
  if (batchDims < 0) batchDims += indicesRank;
  if (!axis) {
    return plan.problem =
               "axis " + std::to_string(optionOf(op, "axis")) + " within " + tensorText(*params),
           plan;
  }
  if (batchDims < 0 || batchDims > indicesRank || batchDims > *axis) {
    return plan.problem = "batch_dims " + std::to_string(optionOf(op, "batch_dims")) +
                          " within the indices' rank and not past the axis",
           plan;
  }
  const auto b = static_cast<std::size_t>(batchDims);
  for (std::size_t d = 0; d < b; ++d) {
    if (params->shape[d] != indices->shape[d]) {
      return plan.problem = "the first " + std::to_string(b) + " dimensions of " +
                            tensorText(*params) + " and " + tensorText(*indices) + " to agree",
             plan;
    }
  }
  const auto at = static_cast<std::size_t>(*axis);
  plan.batches = productOf(params->shape, 0, b);
  plan.outer = productOf(params->shape, b, at);
  plan.axisSize = params->shape[at];
  plan.inner = productOf(params->shape, at + 1, params->shape.size());
  plan.coords = productOf(indices->shape, b, indices->shape.size());
  plan.outputShape.assign(params->shape.begin(), params->shape.begin() + *axis);
  plan.outputShape.insert(plan.outputShape.end(), indices->shape.begin() + batchDims,
                          indices->shape.end());
  plan.outputShape.insert(plan.outputShape.end(), params->shape.begin() + *axis + 1,
                          params->shape.end());
  return plan;
}

std::optional<InferredOutput> gatherShape(const ir::Graph& graph, const ir::Operator& op) {
  const GatherPlan plan = planGather(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped(plan.outputShape, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkGather(const ir::Graph& graph, const ir::Operator& op) {
  const GatherPlan plan = planGather(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& params = *graph.input(op, 0);
  const ir::Tensor& indices = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasCBufferType(params.dtype)) {
    return "params dtype " + reference::describeDtype(params.dtype) + " is not supported";
  }
  if (indices.dtype != ir::DType::Int32) {
    return "indices dtype " + reference::describeDtype(indices.dtype) +
           " is not supported (expected int32, as TFLite Micro)";
  }
  if (auto problem = checkOutput(output, params.dtype, plan.outputShape)) return problem;
  return std::nullopt;
}

void evalGather(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const GatherPlan plan = planGather(graph, op);
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(graph.input(op, 0)->dtype));
  const auto in = store.bytes(op.inputs[0]);
  const auto* indices = store.data<std::int32_t>(op.inputs[1]);
  auto out = store.mutableBytes(op.outputs[0]);
  const std::int64_t run = plan.inner * elementSize;
  for (std::int64_t batch = 0; batch < plan.batches; ++batch) {
    for (std::int64_t outer = 0; outer < plan.outer; ++outer) {
      for (std::int64_t i = 0; i < plan.coords; ++i) {
        const std::int32_t from = indices[batch * plan.coords + i];
        if (from < 0 || from >= plan.axisSize) {
          throw std::out_of_range("#" + std::to_string(op.index) + " GATHER: index " +
                                  std::to_string(from) + " is outside the axis of " +
                                  std::to_string(plan.axisSize));
        }
        const std::int64_t slice = batch * plan.outer + outer;
        std::memcpy(out.data() + ((slice * plan.coords) + i) * run,
                    in.data() + ((slice * plan.axisSize) + from) * run,
                    static_cast<std::size_t>(run));
      }
    }
  }
}

// for slice, i: index = indices[batch * coords + i]; check it;
// out[(slice * coords + i) * inner + j] = params[(slice * axis + index) * inner + j].
tir::PrimFunc lowerGather(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  const GatherPlan plan = planGather(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer params = fb.input(op.inputs[0], "params");
  const tir::Buffer indices = fb.input(op.inputs[1], "indices");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Var slice = tir::makeVar("slice"), i = tir::makeVar("i"), j = tir::makeVar("j");
  const tir::Var index = tir::makeVar("index");
  // slice runs over batches x outer; its batch is slice / outer.
  const tir::Expr batch = tir::refVar(slice) / tir::intImm(plan.outer);
  const tir::Expr from = (tir::refVar(slice) * tir::intImm(plan.axisSize) + tir::refVar(index)) *
                             tir::intImm(plan.inner) +
                         tir::refVar(j);
  const tir::Expr to =
      (tir::refVar(slice) * tir::intImm(plan.coords) + tir::refVar(i)) * tir::intImm(plan.inner) +
      tir::refVar(j);
  const tir::Stmt copy = tir::forLoop(j, tir::intImm(0), tir::intImm(plan.inner),
                                      tir::store(out, to, tir::load(params, from)));
  const tir::Stmt body =
      tir::let(index, tir::load(indices, batch * tir::intImm(plan.coords) + tir::refVar(i)),
               tir::seq({tir::evaluateChecked(
                             tir::callIntrinsic("loupe.check_index", tir::ScalarType::Int32,
                                                {tir::refVar(index), tir::intImm(plan.axisSize)})),
                         copy}));
  return fb.finish(tir::forLoop(slice, tir::intImm(0), tir::intImm(plan.batches * plan.outer),
                                tir::forLoop(i, tir::intImm(0), tir::intImm(plan.coords), body)));
}

const reference::Kernel kGatherKernel{ir::OpType::Gather, checkGather, evalGather};

}  // namespace

extern const OperatorDefinition kGatherDefinition{
    .type = ir::OpType::Gather,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool params; int32 indices",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::GatherOptions>(),
               .maxVersion = 7,
               .readOptions = readGatherOptions},
    .shape = gatherShape,
    .kernel = &kGatherKernel,
    .lower = lowerGather,
};

}  // namespace loupe::ops
