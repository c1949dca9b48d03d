// BROADCAST_ARGS(shape1, shape2): the shape two tensors of shapes shape1
// and shape2 broadcast to, computed from the two 1-D int32 or int64 shape
// vectors, which may be run-time data. The output's length must be known
// statically: it is the longer input's length. Aligned at the end, a missing
// or 1 entry takes the other's; unequal entries neither of which is 1 fail
// the operator (TFLite Micro aborts; the reference throws, the generated C
// returns an error status). TFLite Micro compares and stores each entry
// through a C int, so int64 entries are truncated to 32 bits first; so are
// ours.
#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

// The output's length, or the problem with the operands.
struct BroadcastArgsPlan {
  std::int64_t length1 = 0, length2 = 0, length = 0;
  std::string problem;
};

BroadcastArgsPlan planBroadcastArgs(const ir::Graph& graph, const ir::Operator& op) {
  BroadcastArgsPlan plan;
  const ir::Tensor* shape1 = graph.input(op, 0);
  const ir::Tensor* shape2 = graph.input(op, 1);
  if (shape1 == nullptr || shape2 == nullptr) return plan.problem = "two shape operands", plan;
  if (shape1->shape.size() != 1 || shape2->shape.size() != 1) {
    return plan.problem = "1-D shape operands (found " + tensorText(*shape1) + " and " +
                          tensorText(*shape2) + ")",
           plan;
  }
  plan.length1 = shape1->shape[0];
  plan.length2 = shape2->shape[0];
  plan.length = std::max(plan.length1, plan.length2);
  return plan;
}

std::optional<InferredOutput> broadcastArgsShape(const ir::Graph& graph, const ir::Operator& op) {
  const BroadcastArgsPlan plan = planBroadcastArgs(graph, op);
  if (!plan.problem.empty()) return shapeProblem(plan.problem);
  return shaped({static_cast<std::int32_t>(plan.length)}, {graph.input(op, 0)->dtype});
}

std::optional<std::string> checkBroadcastArgs(const ir::Graph& graph, const ir::Operator& op) {
  const BroadcastArgsPlan plan = planBroadcastArgs(graph, op);
  if (!plan.problem.empty()) return "needs " + plan.problem;
  const ir::Tensor& shape1 = *graph.input(op, 0);
  const ir::Tensor& shape2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (shape1.dtype != ir::DType::Int32 && shape1.dtype != ir::DType::Int64) {
    return "shape dtype " + reference::describeDtype(shape1.dtype) +
           " is not supported (expected int32 or int64)";
  }
  if (shape2.dtype != shape1.dtype || output.dtype != shape1.dtype) {
    return "inputs and output must share one element type, found " + tensorText(shape1) + ", " +
           tensorText(shape2) + " and " + tensorText(output);
  }
  const ir::Shape expected{static_cast<std::int32_t>(plan.length)};
  if (output.shape != expected) {
    return "output " + tensorText(output) + " must be " + ir::shapeToString(expected) +
           " (as long as the longer input)";
  }
  return std::nullopt;
}

// Entry `from` of a shape vector of `dtype` narrowed to int as TFLite Micro
// reads it (C++20 conversions are modular).
std::int32_t entryAt(std::span<const std::uint8_t> bytes, ir::DType dtype, std::int64_t from) {
  if (dtype == ir::DType::Int64) {
    std::int64_t value;
    std::memcpy(&value, bytes.data() + from * 8, 8);
    return static_cast<std::int32_t>(value);
  }
  std::int32_t value;
  std::memcpy(&value, bytes.data() + from * 4, 4);
  return value;
}

void evalBroadcastArgs(const ir::Graph& graph, const ir::Operator& op,
                       reference::TensorStore& store) {
  const BroadcastArgsPlan plan = planBroadcastArgs(graph, op);
  const ir::DType dtype = graph.input(op, 0)->dtype;
  const auto in1 = store.bytes(op.inputs[0]);
  const auto in2 = store.bytes(op.inputs[1]);
  std::uint8_t* out = store.mutableBytes(op.outputs[0]).data();
  for (std::int64_t p = 0; p < plan.length; ++p) {
    // Both vectors end at the output's last entry; before its start, an input reads as 1.
    const std::int64_t from1 = p - (plan.length - plan.length1);
    const std::int64_t from2 = p - (plan.length - plan.length2);
    const std::int32_t a = from1 >= 0 ? entryAt(in1, dtype, from1) : 1;
    const std::int32_t b = from2 >= 0 ? entryAt(in2, dtype, from2) : 1;
    if (a != 1 && b != 1 && a != b) {
      throw std::out_of_range("#" + std::to_string(op.index) + " BROADCAST_ARGS: dimensions " +
                              std::to_string(a) + " and " + std::to_string(b) +
                              " do not broadcast (output entry " + std::to_string(p) + ")");
    }
    const std::int32_t result = a == 1 ? b : a;
    if (dtype == ir::DType::Int64) {
      const std::int64_t wide = result;
      std::memcpy(out + p * 8, &wide, 8);
    } else {
      std::memcpy(out + p * 4, &result, 4);
    }
  }
}

// for p: a = shape1 entry aligned with p (1 before its start), b likewise,
// both as int32; fail unless a == 1, b == 1 or a == b; out[p] = a == 1 ? b : a.
tir::PrimFunc lowerBroadcastArgs(const ir::Graph& graph, const ir::Operator& op,
                                 const std::string& functionName) {
  const BroadcastArgsPlan plan = planBroadcastArgs(graph, op);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Var p = tir::makeVar("p");
  // An empty vector is never read, so it gets no buffer (an unused constant
  // would be a C warning).
  auto alignedEntry = [&](std::size_t slot, std::int64_t length, const char* role) -> tir::Expr {
    if (length == 0) return tir::intImm(1);
    const tir::Buffer in = fb.input(op.inputs[slot], role);
    const std::int64_t offset = plan.length - length;
    const tir::Expr value =
        tir::cast(tir::ScalarType::Int32, tir::load(in, tir::refVar(p) - tir::intImm(offset)));
    if (offset == 0) return value;
    return tir::select(tir::refVar(p) >= tir::intImm(offset), value, tir::intImm(1));
  };
  const tir::Expr entry1 = alignedEntry(0, plan.length1, "shape1");
  const tir::Expr entry2 = alignedEntry(1, plan.length2, "shape2");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Var a = tir::makeVar("a"), b = tir::makeVar("b");
  const tir::Expr x = tir::refVar(a), y = tir::refVar(b);
  const tir::Expr broadcasts = tir::logicalOr(
      tir::logicalOr(tir::eq(x, tir::intImm(1)), tir::eq(y, tir::intImm(1))), tir::eq(x, y));
  // loupe.check_index is the run-time failure status: index 0 passes, 1 does not.
  const tir::Stmt check = tir::evaluateChecked(tir::callIntrinsic(
      "loupe.check_index", tir::ScalarType::Int32,
      {tir::select(broadcasts, tir::intImm(0), tir::intImm(1)), tir::intImm(1)}));
  const tir::Stmt write = tir::store(
      out, tir::refVar(p), tir::cast(out->type, tir::select(tir::eq(x, tir::intImm(1)), y, x)));
  return fb.finish(
      tir::forLoop(p, tir::intImm(0), tir::intImm(plan.length),
                   tir::let(a, entry1, tir::let(b, entry2, tir::seq({check, write})))));
}

const reference::Kernel kBroadcastArgsKernel{ir::OpType::BroadcastArgs, checkBroadcastArgs,
                                             evalBroadcastArgs};

}  // namespace

extern const OperatorDefinition kBroadcastArgsDefinition{
    .type = ir::OpType::BroadcastArgs,
    .dtypes = "int32 or int64 shape vectors and output",
    .import = {.minInputs = 2, .maxInputs = 2, .maxVersion = 1},
    .shape = broadcastArgsShape,
    .kernel = &kBroadcastArgsKernel,
    .lower = lowerBroadcastArgs,
};

}  // namespace loupe::ops
