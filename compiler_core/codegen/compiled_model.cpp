#include "codegen/compiled_model.h"

namespace loupe::codegen {

bool runsEthosU(const CompiledModel& model) {
  return std::any_of(model.graph.operators.begin(), model.graph.operators.end(),
                     [](const ir::Operator& op) { return op.type == ir::OpType::EthosU; });
}

bool needsRuntimeFile(const CompiledModel& model, std::string_view path) {
  return !path.starts_with("src/ethosu/") || runsEthosU(model);
}

}  // namespace loupe::codegen
