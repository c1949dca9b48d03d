#include "target/target_lowering.h"

namespace loupe::target {

std::map<int, codegen::ExternalOperator> externalOperators(const ir::Graph& partitioned,
                                                           const TargetList& targets) {
  std::map<int, codegen::ExternalOperator> external;
  for (const auto& target : targets) {
    const std::optional<codegen::ExternalOperator> lowering = target->externalLowering();
    if (!lowering) continue;
    for (const ir::Operator& op : partitioned.operators) {
      if (op.placement.target == target->name()) external[op.index] = *lowering;
    }
  }
  return external;
}

}  // namespace loupe::target
