// From a partitioned graph to code generation: every operator placed on a
// target with its own lowering (the NPU) becomes an external operator of
// codegen::CompileOptions, compiled by that target and run on its device.
#pragma once

#include <map>

#include "codegen/model_compiler.h"
#include "ir/graph.h"
#include "target/target_string.h"

namespace loupe::target {

std::map<int, codegen::ExternalOperator> externalOperators(const ir::Graph& partitioned,
                                                           const TargetList& targets);

}  // namespace loupe::target
