// Lowering: one graph operator (after the graph passes) to one TIR PrimFunc.
// Each operator type has its own file (lower_<op>.cpp) with the loop nest
// that computes exactly what the reference kernel computes; this header is
// the single entry point the compile pipeline calls.
#pragma once

#include <optional>
#include <string>

#include "ir/graph.h"
#include "lowering/schedule.h"
#include "target/cpu_isa.h"
#include "tir/prim_func.h"

namespace loupe::lowering {

// Why `op` cannot be lowered to C (no lowering for its type, or its reference
// kernel's check fails), or nullopt when it can: what the CPU target accepts.
std::optional<std::string> loweringProblem(const ir::Graph& graph, const ir::Operator& op);

// Throws LoweringError naming the operator when it has no lowering. For a
// Cortex-M instruction set, the operators that have a kernel for it
// (lowering/simd_lowering.h: int8 CONV_2D, FULLY_CONNECTED, DEPTHWISE_CONV_2D
// and ADD, as each ISA covers them) call it unless `schedule` asks for the
// loop nests (lowering/schedule.h); the others, and the shapes the kernels
// do not cover, are lowered as for portable C. The schedule's unroll factor
// is applied by the caller, after simplification (tir/unroll_hint.h).
tir::PrimFunc lowerOperator(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName,
                            target::CpuIsa isa = target::CpuIsa::Scalar,
                            const Schedule& schedule = {});

}  // namespace loupe::lowering
