// EMBEDDING_LOOKUP(ids, table): output row i is row ids[i] of the table
// (its first dimension; the rest of its shape is the row's). ids is a 1-D
// int32 tensor read at run time; an id outside the table fails the operator,
// as in TFLite Micro (the reference throws, the generated C returns an error
// status before reading). A float32 table gives float32 rows and an int8
// table int8 rows, copied as they are. An int8 table with a float32 output is
// TFLite Micro's hybrid case: each value is dequantised as
// (float)(q - 0) * scale with the table's one scale (its zero point must
// be 0). TFLite Micro would take only the first scale of a per-channel
// table, where TFLite scales each row by its own; such tables are refused.
#include <cstring>
#include <stdexcept>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

struct LookupPlan {
  std::int64_t lookups = 0;  // ids
  std::int64_t rows = 0;     // table.shape[0]
  std::int64_t columns = 1;  // elements per row: product of table.shape[1:]
  ir::Shape outputShape;
  std::string problem;
};

LookupPlan planLookup(const ir::Graph& graph, const ir::Operator& op) {
  LookupPlan plan;
  const ir::Tensor* ids = graph.input(op, 0);
  const ir::Tensor* table = graph.input(op, 1);
  if (ids == nullptr || table == nullptr) return plan.problem = "ids and table operands", plan;
  if (ids->shape.size() != 1) {
    return plan.problem = "1-D ids (found " + tensorText(*ids) + ")", plan;
  }
  if (table->shape.size() < 2) {
    return plan.problem = "a table of at least two dimensions (found " + tensorText(*table) + ")",
           plan;
  }
  // TFLite Micro divides by the row count to find the row length.
  if (table->shape[0] == 0) return plan.problem = "a table with rows: " + tensorText(*table), plan;
  plan.lookups = ids->shape[0];
  plan.rows = table->shape[0];
  plan.columns = productOf(table->shape, 1, table->shape.size());
  plan.outputShape = table->shape;
  plan.outputShape[0] = ids->shape[0];
  return plan;
}

bool isHybrid(const ir::Graph& graph, const ir::Operator& op) {
  return graph.input(op, 1)->dtype == ir::DType::Int8 &&
         graph.output(op, 0).dtype == ir::DType::Float32;
}

std::optional<InferredOutput> lookupShape(const ir::Graph& graph, const ir::Operator& op) {
  const LookupPlan plan = planLookup(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  const ir::DType tableType = graph.input(op, 1)->dtype;
  if (tableType == ir::DType::Int8)
    return shaped(plan.outputShape, {tableType, ir::DType::Float32});
  return shaped(plan.outputShape, {tableType});
}

std::optional<std::string> checkLookup(const ir::Graph& graph, const ir::Operator& op) {
  const LookupPlan plan = planLookup(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& ids = *graph.input(op, 0);
  const ir::Tensor& table = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (ids.dtype != ir::DType::Int32) {
    return "ids dtype " + reference::describeDtype(ids.dtype) +
           " is not supported (expected int32, as TFLite Micro)";
  }
  if (table.dtype != ir::DType::Float32 && table.dtype != ir::DType::Int8) {
    return "table dtype " + reference::describeDtype(table.dtype) +
           " is not supported (expected float32 or int8, as TFLite Micro)";
  }
  const bool typeFits = output.dtype == table.dtype || isHybrid(graph, op);
  if (!typeFits || output.shape != plan.outputShape) {
    return "output " + tensorText(output) + "; expected " +
           std::string(table.dtype == ir::DType::Int8 ? "int8 or float32" : "float32") +
           ir::shapeToString(plan.outputShape);
  }
  if (isHybrid(graph, op)) {
    if (auto problem = reference::checkPerTensorQuantization("table", table)) return problem;
    if (auto problem = reference::checkZeroPoint("table", table, 0,
                                                 "TFLite Micro dequantises hybrid lookups so")) {
      return problem;
    }
  }
  return std::nullopt;
}

void evalLookup(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const LookupPlan plan = planLookup(graph, op);
  const ir::Tensor& table = *graph.input(op, 1);
  const auto* ids = store.data<std::int32_t>(op.inputs[0]);
  const auto values = store.bytes(op.inputs[1]);
  const bool hybrid = isHybrid(graph, op);
  const float scale = table.quantization.scale();
  const auto elementSize = static_cast<std::int64_t>(ir::dtypeSize(table.dtype));
  const std::int64_t rowBytes = plan.columns * elementSize;
  auto out = store.mutableBytes(op.outputs[0]);
  for (std::int64_t i = 0; i < plan.lookups; ++i) {
    const std::int32_t id = ids[i];
    if (id < 0 || id >= plan.rows) {
      throw std::out_of_range("#" + std::to_string(op.index) + " EMBEDDING_LOOKUP: id " +
                              std::to_string(id) + " is outside the table's " +
                              std::to_string(plan.rows) + " rows");
    }
    if (!hybrid) {
      std::memcpy(out.data() + i * rowBytes, values.data() + id * rowBytes,
                  static_cast<std::size_t>(rowBytes));
      continue;
    }
    const auto* row = reinterpret_cast<const std::int8_t*>(values.data()) + id * plan.columns;
    auto* dequantized = reinterpret_cast<float*>(out.data()) + i * plan.columns;
    for (std::int64_t c = 0; c < plan.columns; ++c) {
      // An int times a float, as TFLite Micro's Dequantize with zero point 0.
      dequantized[c] = static_cast<float>(static_cast<std::int32_t>(row[c])) * scale;
    }
  }
}

// for i: id = ids[i]; check it; for c: out[i * columns + c] =
// table[id * columns + c], or (float)(that) * scale in the hybrid case.
tir::PrimFunc lowerLookup(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  const LookupPlan plan = planLookup(graph, op);
  const bool hybrid = isHybrid(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer ids = fb.input(op.inputs[0], "ids");
  const tir::Buffer table = fb.input(op.inputs[1], "table");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Var i = tir::makeVar("i"), c = tir::makeVar("c"), id = tir::makeVar("id");
  tir::Expr value = tir::load(table, tir::refVar(id) * tir::intImm(plan.columns) + tir::refVar(c));
  if (hybrid) {
    const float scale = graph.input(op, 1)->quantization.scale();
    value = tir::cast(tir::ScalarType::Float32, value) * tir::floatImm(scale);
  }
  const tir::Stmt copy = tir::forLoop(
      c, tir::intImm(0), tir::intImm(plan.columns),
      tir::store(out, tir::refVar(i) * tir::intImm(plan.columns) + tir::refVar(c), value));
  const tir::Stmt body = tir::let(
      id, tir::load(ids, tir::refVar(i)),
      tir::seq({tir::evaluateChecked(tir::callIntrinsic("loupe.check_index", tir::ScalarType::Int32,
                                                        {tir::refVar(id), tir::intImm(plan.rows)})),
                copy}));
  return fb.finish(tir::forLoop(i, tir::intImm(0), tir::intImm(plan.lookups), body));
}

// The hybrid case multiplies once per output element; the others only copy.
std::int64_t lookupMacs(const ir::Graph& graph, const ir::Operator& op) {
  if (graph.input(op, 1) == nullptr || !isHybrid(graph, op)) return 0;
  return graph.output(op, 0).elementCount();
}

const reference::Kernel kEmbeddingLookupKernel{ir::OpType::EmbeddingLookup, checkLookup,
                                               evalLookup};

}  // namespace

extern const OperatorDefinition kEmbeddingLookupDefinition{
    .type = ir::OpType::EmbeddingLookup,
    .dtypes = "int32 ids; float32 or int8 table, same-type output; int8 table to float32 (hybrid)",
    .import = {.minInputs = 2, .maxInputs = 2, .maxVersion = 4},
    .shape = lookupShape,
    .kernel = &kEmbeddingLookupKernel,
    .lower = lowerLookup,
    .macs = lookupMacs,
};

}  // namespace loupe::ops
