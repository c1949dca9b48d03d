#include "analysis/device_mapping.h"

namespace loupe::analysis {

namespace {

nlohmann::json nameOrNull(const std::string& name) {
  return name.empty() ? nlohmann::json(nullptr) : nlohmann::json(name);
}

}  // namespace

nlohmann::json deviceMappingJson(const ir::Graph& graph) {
  nlohmann::json operators = nlohmann::json::array();
  for (const ir::Operator& op : graph.operators) {
    operators.push_back({{"index", op.index},
                         {"type", op.typeName()},
                         {"model_operators", op.modelOperators()},
                         {"target", nameOrNull(op.placement.target)},
                         {"region", nameOrNull(ir::regionName(graph, op))}});
  }
  nlohmann::json regions = nlohmann::json::array();
  for (const ir::ExternalFunction& f : graph.externalFunctions) {
    regions.push_back({{"name", f.name},
                       {"target", f.target},
                       {"operators", f.operators},
                       {"inputs", f.inputs},
                       {"outputs", f.outputs},
                       {"constants", f.constants}});
  }
  nlohmann::json main = nlohmann::json::array();
  for (const ir::MainCall& call : graph.mainCalls) {
    main.push_back(
        call.externalFunction >= 0
            ? graph.externalFunctions[static_cast<std::size_t>(call.externalFunction)].name
            : "op " + std::to_string(call.operatorIndex));
  }
  return {{"operators", operators}, {"regions", regions}, {"main", main}};
}

}  // namespace loupe::analysis
