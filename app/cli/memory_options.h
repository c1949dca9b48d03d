// The memory-planning options shared by compile, run and memplan:
// --planner NAME and --pools SPEC.
#pragma once

#include <vector>

#include "cli/command_line.h"
#include "memory/memory_plan.h"

namespace loupe::cli {

// The OptionSpecs of --planner, --pools, --overlap-outputs, --patches and
// --plain-plan, to append to a verb's own.
std::vector<OptionSpec> memoryOptionSpecs();

// The planner and pools the user chose; UsageError for an unknown planner or
// a malformed pool list. `allowAll` accepts --planner all (memplan only).
memory::MemoryPlanOptions memoryOptionsFrom(const ParsedArguments& parsed, bool allowAll = false);

// Whether a board's plan is fitted (driver::CompileRequest::fitToMemories):
// yes unless --plain-plan, --overlap-outputs or --patches chose it.
bool fitToMemoriesFrom(const ParsedArguments& parsed);

// "greedy_by_size, greedy_by_conflicts, ..."
std::string plannerNameList();

}  // namespace loupe::cli
