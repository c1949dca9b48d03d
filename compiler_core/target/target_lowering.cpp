#include "target/target_lowering.h"

namespace loupe::target {

std::map<int, codegen::ExternalLowering> externalFunctions(const ir::Graph& partitioned,
                                                           const TargetList& targets) {
  std::map<int, codegen::ExternalLowering> external;
  for (const auto& target : targets) {
    const std::optional<codegen::ExternalLowering> lowering = target->externalLowering();
    if (!lowering) continue;
    for (std::size_t i = 0; i < partitioned.externalFunctions.size(); ++i) {
      if (partitioned.externalFunctions[i].target == target->name()) {
        external[static_cast<int>(i)] = *lowering;
      }
    }
  }
  return external;
}

codegen::CompiledModel compileForTargets(const ir::Graph& partitioned, const TargetList& targets,
                                         codegen::CompileOptions options) {
  options.externalFunctions = externalFunctions(partitioned, targets);
  return codegen::compileToC(partitioned, options);
}

}  // namespace loupe::target
