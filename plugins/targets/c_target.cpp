#include "targets/c_target.h"

#include "lowering/lower_operator.h"
#include "target/cpu_isa.h"

namespace loupe::targets {

target::TargetVerdict CTarget::accepts(const ir::Graph& graph, const ir::Operator& op) const {
  if (auto problem = lowering::loweringProblem(graph, op)) {
    return target::TargetVerdict::reject({*problem});
  }
  return target::TargetVerdict::accept();
}

target::TargetKind cTargetKind() {
  std::vector<std::string> cpus{std::string(target::kGenericCpu)};
  for (const std::string& cpu : target::knownCpus()) cpus.push_back(cpu);
  return {std::string(target::kCpuTargetName),
          {{std::string(target::kCpuOption), cpus, ""}},
          [](const target::TargetOptions& options) {
            return std::make_shared<const CTarget>(options);
          }};
}

}  // namespace loupe::targets
