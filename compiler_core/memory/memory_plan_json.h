// A memory plan as JSON, the shape `loupec memplan --json` prints and the MLF
// metadata carries: {"planner", "total_bytes", "lower_bound", "pools":
// [{"name", "size"}], "buffers": [{"tensor", "size", "first_step",
// "last_step", "pool", "offset", "alias_of"}], ...}. Every tensor stored in
// the workspace has an entry; an alias names the tensor whose buffer it
// shares in alias_of (null for an owner).
#pragma once

#include <nlohmann/json.hpp>

#include "ir/graph.h"
#include "memory/memory_plan.h"

namespace loupe::memory {

nlohmann::json memoryPlanJson(const ir::Graph& graph, const MemoryPlan& plan);

}  // namespace loupe::memory
