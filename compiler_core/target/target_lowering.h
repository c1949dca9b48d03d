// From a partitioned graph to code generation: every region (external
// function) placed on a target with its own lowering (the NPU) becomes an
// external function of codegen::CompileOptions, compiled by that target into
// one function and run on its device with one call.
#pragma once

#include <map>

#include "codegen/model_compiler.h"
#include "ir/graph.h"
#include "target/target_string.h"

namespace loupe::target {

// Index into partitioned.externalFunctions -> the lowering of its target.
std::map<int, codegen::ExternalLowering> externalFunctions(const ir::Graph& partitioned,
                                                           const TargetList& targets);

// Compiles a partitioned graph to C with `options`, its regions lowered by
// their targets (externalFunctions): what loupec compile and run, the GUI and
// Run on board each do with the graph runPartitionPipeline gave them.
codegen::CompiledModel compileForTargets(const ir::Graph& partitioned, const TargetList& targets,
                                         codegen::CompileOptions options = {});

}  // namespace loupe::target
