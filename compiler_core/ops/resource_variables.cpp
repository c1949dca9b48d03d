// TFLite's resource variables, as TFLite Micro runs them: VAR_HANDLE names a
// variable (container, shared_name), ASSIGN_VARIABLE copies a value into it,
// READ_VARIABLE copies it out, and CALL_ONCE runs an init subgraph (which
// assigns the variables' first values) on the first invocation only.
//
// The importer resolves the handles (frontend/resource_variables.h): each
// variable becomes one variable tensor of the graph, state kept from one run
// to the next like an SVDF's, holding the values the init subgraph assigns
// (else TFLM's default, the value tensor's zero point). What reaches the graph
// is READ_VARIABLE(variable) -> value and ASSIGN_VARIABLE(variable, value),
// both byte copies; VAR_HANDLE and CALL_ONCE are gone.
#include <algorithm>
#include <cstring>

#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/subgraph_inlining.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

std::optional<std::string> checkVariableOperand(const ir::Tensor* variable) {
  if (variable == nullptr) return "needs a variable";
  if (!variable->isVariable) {
    return "operand " + tensorText(*variable) + " is not a resource variable";
  }
  return std::nullopt;
}

std::optional<std::string> checkSameBytes(const ir::Tensor& variable, const ir::Tensor& value,
                                          const char* role) {
  if (value.dtype != variable.dtype || value.elementCount() != variable.elementCount()) {
    return std::string(role) + " " + tensorText(value) + " must have the type and size of " +
           "the variable " + tensorText(variable);
  }
  return std::nullopt;
}

// A copy of `from` into `to`, element by element in their common type.
tir::PrimFunc lowerCopy(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName, int from, int to) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer source = fb.input(from, "source");
  const tir::Buffer target = fb.param(to, "target", true);
  return fb.finish(copyElements(target, source));
}

void copyBytes(reference::TensorStore& store, int from, int to) {
  const auto source = store.bytes(from);
  const auto target = store.mutableBytes(to);
  std::copy(source.begin(), source.end(), target.begin());
}

// --- READ_VARIABLE(variable) -> value --------------------------------------------

std::optional<std::string> checkRead(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* variable = graph.input(op, 0);
  if (auto problem = checkVariableOperand(variable)) return problem;
  return checkSameBytes(*variable, graph.output(op, 0), "output");
}

void evalRead(const ir::Graph&, const ir::Operator& op, reference::TensorStore& store) {
  copyBytes(store, op.inputs[0], op.outputs[0]);
}

tir::PrimFunc lowerRead(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  return lowerCopy(graph, op, functionName, op.inputs[0], op.outputs[0]);
}

std::optional<InferredOutput> readShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* variable = graph.input(op, 0);
  if (variable == nullptr) return std::nullopt;
  return shaped(variable->shape, {variable->dtype});
}

// --- ASSIGN_VARIABLE(variable, value) --------------------------------------------

std::optional<std::string> checkAssign(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* variable = graph.input(op, 0);
  if (auto problem = checkVariableOperand(variable)) return problem;
  const ir::Tensor* value = graph.input(op, 1);
  if (value == nullptr) return "needs a value";
  return checkSameBytes(*variable, *value, "value");
}

void evalAssign(const ir::Graph&, const ir::Operator& op, reference::TensorStore& store) {
  copyBytes(store, op.inputs[1], op.inputs[0]);
}

tir::PrimFunc lowerAssign(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  return lowerCopy(graph, op, functionName, op.inputs[1], op.inputs[0]);
}

const reference::Kernel kReadVariableKernel{ir::OpType::ReadVariable, checkRead, evalRead};
const reference::Kernel kAssignVariableKernel{ir::OpType::AssignVariable, checkAssign, evalAssign};

constexpr std::string_view kAnyType = "any (a byte copy of the variable)";

}  // namespace

extern const OperatorDefinition kReadVariableDefinition{
    .type = ir::OpType::ReadVariable,
    .dtypes = kAnyType,
    .import = {.optionsType = optionsTypeOf<tflite::ReadVariableOptions>()},
    .shape = readShape,
    .kernel = &kReadVariableKernel,
    .lower = lowerRead,
};

extern const OperatorDefinition kAssignVariableDefinition{
    .type = ir::OpType::AssignVariable,
    .dtypes = kAnyType,
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .outputs = 0,
               .optionsType = optionsTypeOf<tflite::AssignVariableOptions>()},
    .kernel = &kAssignVariableKernel,
    .lower = lowerAssign,
};

extern const OperatorDefinition kVarHandleDefinition{
    .type = ir::OpType::VarHandle,
    .import = {.minInputs = 0,
               .maxInputs = 0,
               .optionsType = optionsTypeOf<tflite::VarHandleOptions>()},
    .resolvedByImporter = "each (container, shared_name) becomes one variable tensor (state)",
};

extern const OperatorDefinition kCallOnceDefinition{
    .type = ir::OpType::CallOnce,
    .import = {.minInputs = 0,
               .maxInputs = 0,
               .outputs = 0,
               .optionsType = optionsTypeOf<tflite::CallOnceOptions>()},
    .resolvedByImporter =
        "its init subgraph's constant assignments become the variables' "
        "initial values",
};

}  // namespace loupe::ops
