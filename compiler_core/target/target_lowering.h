// From a partitioned graph to code generation: every region (external
// function) placed on a target with its own lowering (the NPU) becomes an
// external function of codegen::CompileOptions, compiled by that target into
// one function and run on its device with one call.
#pragma once

#include <map>

#include "codegen/model_compiler.h"
#include "ir/graph.h"
#include "target/cpu_isa.h"
#include "target/target_string.h"

namespace loupe::target {

// Index into partitioned.externalFunctions -> the lowering of its target.
std::map<int, codegen::ExternalLowering> externalFunctions(const ir::Graph& partitioned,
                                                           const TargetList& targets);

// The instruction set the CPU's kernels are lowered for: the c target's
// -mcpu when set ("generic": portable C), else `boardCpu`'s (the -mcpu of the
// board the code will run on; empty or unknown: portable C).
CpuIsa cpuIsaFor(const TargetList& targets, std::string_view boardCpu);

// Compiles a partitioned graph to C with `options`, its regions lowered by
// their targets (externalFunctions): what loupec compile and run, the GUI and
// Run on board each do with the graph runPartitionPipeline gave them.
codegen::CompiledModel compileForTargets(const ir::Graph& partitioned, const TargetList& targets,
                                         codegen::CompileOptions options = {});

}  // namespace loupe::target
