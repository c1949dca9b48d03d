// The partition of a graph as JSON: which target runs every operator, in
// which region, and each region's external function (operators, inputs,
// outputs, constants) and main's calls. `loupec info --json` reports it and
// metadata.json of a Model Library Format carries it as "device_mapping".
#pragma once

#include <nlohmann/json.hpp>

#include "ir/graph.h"

namespace loupe::analysis {

// {"operators": [{"index", "type", "model_operators", "target", "region"}],
//  "regions": [{"name", "target", "operators", "inputs", "outputs", "constants"}],
//  "main": ["npu_0", "op 3", ...]}; target and region are null where unset.
nlohmann::json deviceMappingJson(const ir::Graph& graph);

}  // namespace loupe::analysis
