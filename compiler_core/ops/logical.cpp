// LOGICAL_AND and LOGICAL_OR (element-wise, with NumPy broadcasting) and
// LOGICAL_NOT (element-wise), on bool tensors: one byte per element, read as
// true when non-zero and written as 0 or 1. TFLite Micro's LOGICAL_AND and
// LOGICAL_OR have no Prepare and read any input as bool; Loupe requires bool
// operands, the only type a converter gives them.
#include <cstdint>

#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

enum class Connective { And, Or };

bool combine(Connective c, bool a, bool b) {
  return c == Connective::And ? a && b : a || b;
}

tir::Expr truthOf(const tir::Expr& byte) {
  return tir::ne(byte, tir::intImm(0));
}

// A bool output element: 1 where `holds`, else 0.
tir::Expr boolByte(const tir::Expr& holds) {
  return tir::cast(tir::ScalarType::UInt8, tir::select(holds, tir::intImm(1), tir::intImm(0)));
}

std::optional<std::string> notBool(std::string_view role, const ir::Tensor& tensor) {
  if (tensor.dtype == ir::DType::Bool) return std::nullopt;
  return reference::describeTensor(role, tensor) + " must be bool";
}

// --- LOGICAL_AND, LOGICAL_OR -----------------------------------------------------

std::optional<InferredOutput> binaryShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op, ir::DType::Bool);
}

std::optional<std::string> checkBinary(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* a = graph.input(op, 0);
  const ir::Tensor* b = graph.input(op, 1);
  if (a == nullptr || b == nullptr) return "needs two inputs";
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = notBool("input 1", *a)) return problem;
  if (auto problem = notBool("input 2", *b)) return problem;
  if (auto problem = notBool("output", output)) return problem;
  const auto shape = reference::broadcastShape(a->shape, b->shape);
  if (!shape || *shape != output.shape) {
    return "output " + tensorText(output) + " is not the broadcast of " + tensorText(*a) + " and " +
           tensorText(*b);
  }
  return std::nullopt;
}

template <Connective kConnective>
void evalBinary(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto* a = store.data<std::uint8_t>(op.inputs[0]);
  const auto* b = store.data<std::uint8_t>(op.inputs[1]);
  auto* out = store.mutableData<std::uint8_t>(op.outputs[0]);
  reference::forEachBroadcastElement(
      graph.output(op, 0).shape, graph.tensor(op.inputs[0]).shape, graph.tensor(op.inputs[1]).shape,
      [&](std::int64_t o, std::int64_t i1, std::int64_t i2) {
        out[o] = combine(kConnective, a[i1] != 0, b[i2] != 0) ? 1 : 0;
      });
}

template <Connective kConnective>
tir::PrimFunc lowerBinary(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  return lowerBroadcastBinary(graph, op, functionName, [](const tir::Expr& a, const tir::Expr& b) {
    const tir::Expr x = truthOf(a), y = truthOf(b);
    return boolByte(kConnective == Connective::And ? tir::logicalAnd(x, y) : tir::logicalOr(x, y));
  });
}

// --- LOGICAL_NOT ---------------------------------------------------------------------

std::optional<std::string> checkNot(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  const ir::Tensor& output = graph.output(op, 0);
  if (auto problem = notBool("input", *input)) return problem;
  if (auto problem = notBool("output", output)) return problem;
  if (output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's shape";
  }
  return std::nullopt;
}

void evalNot(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto* in = store.data<std::uint8_t>(op.inputs[0]);
  auto* out = store.mutableData<std::uint8_t>(op.outputs[0]);
  const std::int64_t count = graph.tensor(op.inputs[0]).elementCount();
  for (std::int64_t i = 0; i < count; ++i) out[i] = in[i] == 0 ? 1 : 0;
}

tir::PrimFunc lowerNot(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Stmt body =
      flatLoop(graph.tensor(op.inputs[0]).elementCount(), [&](const tir::Expr& i) {
        return tir::store(out, i, boolByte(tir::eq(tir::load(in, i), tir::intImm(0))));
      });
  return fb.finish(body);
}

const reference::Kernel kLogicalAndKernel{ir::OpType::LogicalAnd, checkBinary,
                                          evalBinary<Connective::And>};
const reference::Kernel kLogicalOrKernel{ir::OpType::LogicalOr, checkBinary,
                                         evalBinary<Connective::Or>};
const reference::Kernel kLogicalNotKernel{ir::OpType::LogicalNot, checkNot, evalNot};

}  // namespace

extern const OperatorDefinition kLogicalAndDefinition{
    .type = ir::OpType::LogicalAnd,
    .dtypes = "bool",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::LogicalAndOptions>()},
    .shape = binaryShape,
    .kernel = &kLogicalAndKernel,
    .lower = lowerBinary<Connective::And>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kLogicalOrDefinition{
    .type = ir::OpType::LogicalOr,
    .dtypes = "bool",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::LogicalOrOptions>()},
    .shape = binaryShape,
    .kernel = &kLogicalOrKernel,
    .lower = lowerBinary<Connective::Or>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kLogicalNotDefinition{
    .type = ir::OpType::LogicalNot,
    .dtypes = "bool",
    .import = {.optionsType = optionsTypeOf<tflite::LogicalNotOptions>()},
    .shape = sameAsInput,
    .kernel = &kLogicalNotKernel,
    .lower = lowerNot,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
