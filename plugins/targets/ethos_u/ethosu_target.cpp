#include "targets/ethos_u/ethosu_target.h"

#include "ethosu/region_compiler.h"

namespace loupe::targets::ethos_u {

const ethosu::NpuArchitecture& EthosUTarget::architecture() const {
  // The option's value was checked against the kind's list on parsing.
  return *ethosu::findNpuArchitecture(acceleratorConfig());
}

std::string EthosUTarget::displayName() const {
  return "Ethos-U " + acceleratorConfig();
}

target::TargetVerdict EthosUTarget::accepts(const ir::Graph& graph, const ir::Operator& op) const {
  std::vector<std::string> reasons = ethosu::npuRefusals(graph, op, architecture());
  if (reasons.empty()) return target::TargetVerdict::accept();
  return target::TargetVerdict::reject(std::move(reasons));
}

std::optional<target::Target::RegionOperatorCompiler> EthosUTarget::regionOperatorCompiler() const {
  const ethosu::NpuArchitecture* arch = &architecture();
  return RegionOperatorCompiler([arch](const ir::Graph& graph, int first, int last) {
    return ethosu::withNpuRegion(graph, first, last, *arch);
  });
}

target::TargetKind ethosUTargetKind() {
  // Single-core configurations: the emitter does not write the U65-512's
  // two weight streams yet.
  return {kEthosUTargetName,
          {{"accelerator_config",
            {"ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256", "ethos-u65-256"},
            "ethos-u55-128"}},
          [](const target::TargetOptions& options) {
            return std::make_shared<const EthosUTarget>(options);
          }};
}

}  // namespace loupe::targets::ethos_u
