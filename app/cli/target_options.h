// The target option shared by info, compile and run: --target "ethos-u
// -accelerator_config=ethos-u55-128, c" (default "c"), parsed against the built-in targets, and
// the one-line summary of where the operators went.
#pragma once

#include <string>

#include "cli/command_line.h"
#include "ir/graph.h"
#include "target/target_registry.h"
#include "target/target_string.h"

namespace loupe::cli {

inline constexpr const char* kDefaultTargetString = "c";

OptionSpec targetOptionSpec();

// The targets the user chose; UsageError ("--target: unknown target 'gpu'
// ...") when the string is wrong.
target::TargetList targetsFrom(const ParsedArguments& parsed,
                               const target::TargetRegistry& registry);

// "Ethos-U ethos-u55-128: 12 of 13 operators in 1 region; c: 1" for a
// partitioned graph, in the targets' priority order, counted in the model's
// operators; operators no target accepts are counted as "no target".
std::string targetSummary(const ir::Graph& graph, const target::TargetList& targets);

}  // namespace loupe::cli
