#include "targets/c_target.h"

#include "lowering/lower_operator.h"

namespace loupe::targets {

target::TargetVerdict CTarget::accepts(const ir::Graph& graph, const ir::Operator& op) const {
  if (auto problem = lowering::loweringProblem(graph, op)) {
    return target::TargetVerdict::reject({*problem});
  }
  return target::TargetVerdict::accept();
}

target::TargetKind cTargetKind() {
  return {std::string(target::kCpuTargetName), {}, [](const target::TargetOptions&) {
            return std::make_shared<const CTarget>();
          }};
}

}  // namespace loupe::targets
