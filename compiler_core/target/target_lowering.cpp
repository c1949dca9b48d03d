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

CpuIsa cpuIsaFor(const TargetList& targets, std::string_view boardCpu) {
  std::string_view cpu = boardCpu;
  for (const auto& t : targets) {
    if (t->name() != kCpuTargetName) continue;
    const auto option = t->options().find(std::string(kCpuOption));
    if (option != t->options().end() && !option->second.empty()) cpu = option->second;
  }
  return cpuIsaOf(cpu).value_or(CpuIsa::Scalar);
}

codegen::CompiledModel compileForTargets(const ir::Graph& partitioned, const TargetList& targets,
                                         codegen::CompileOptions options) {
  options.externalFunctions = externalFunctions(partitioned, targets);
  return codegen::compileToC(partitioned, options);
}

}  // namespace loupe::target
