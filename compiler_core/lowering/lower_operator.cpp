#include "lowering/lower_operator.h"

#include "lowering/lowering_support.h"
#include "ops/operator_registry.h"

namespace loupe::lowering {

std::optional<std::string> loweringProblem(const ir::Graph& graph, const ir::Operator& op) {
  // The reference kernel's check states what the operator needs before any
  // loop is built, in the same words the interpreter uses.
  if (const reference::Kernel* kernel = reference::findKernel(op.type)) {
    if (auto problem = kernel->check(graph, op)) return problem;
  }
  if (ops::definitionOf(op.type).lower == nullptr) {
    return op.type == ir::OpType::Opaque ? "no C lowering: the operator is opaque to the compiler"
                                         : "no C lowering for this operator type yet";
  }
  return std::nullopt;
}

namespace {

// The SIMD lowering of `op` for `isa`, or nullopt where no kernel covers it.
std::optional<tir::PrimFunc> lowerSimd(const ir::Graph& graph, const ir::Operator& op,
                                       const std::string& functionName, target::CpuIsa isa,
                                       const Schedule& schedule) {
  const ops::SimdLoweringRule rule = ops::definitionOf(op.type).lowerSimd;
  if (rule == nullptr) return std::nullopt;
  return rule(graph, op, functionName, isa, schedule);
}

}  // namespace

bool hasSimdKernel(const ir::Graph& graph, const ir::Operator& op, target::CpuIsa isa) {
  if (isa == target::CpuIsa::Scalar || loweringProblem(graph, op)) return false;
  return lowerSimd(graph, op, "probe", isa, {}).has_value();
}

std::vector<Knob> simdKernelKnobs(const ir::Graph& graph, const ir::Operator& op,
                                  target::CpuIsa isa) {
  const ops::SimdKnobsRule rule = ops::definitionOf(op.type).simdKnobs;
  if (rule == nullptr || !hasSimdKernel(graph, op, isa)) return {};
  return rule(graph, op, isa);
}

tir::PrimFunc lowerOperator(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName, target::CpuIsa isa,
                            const Schedule& schedule) {
  if (auto problem = loweringProblem(graph, op)) fail(op, *problem);
  // The SIMD lowerings say nullopt for what their kernels do not cover.
  if (usesSimdKernel(schedule)) {
    if (auto simd = lowerSimd(graph, op, functionName, isa, schedule)) return std::move(*simd);
  }
  return ops::definitionOf(op.type).lower(graph, op, functionName);
}

}  // namespace loupe::lowering
