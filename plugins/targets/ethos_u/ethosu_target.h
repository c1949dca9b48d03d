// Target `ethos-u`: Arm's Ethos-U NPU, as tvmc names it (`--target
// "ethos-u -accelerator_config=ethos-u55-128, c"`). Its regions compile,
// before partitioning, to one Ethos-U operator each: the real command
// stream, weights and scratch of compiler_core/ethosu's emitter, which the
// CPU's code runs through the core driver's ethosu_invoke_v3 (Loupe's
// functional model on the host and QEMU boards). It accepts what the
// emitter lowers, and says why not for the rest.
#pragma once

#include "ethosu/npu_architecture.h"
#include "target/target.h"
#include "target/target_registry.h"
#include "targets/ethos_u/ethosu_performance.h"

namespace loupe::targets::ethos_u {

inline constexpr const char* kEthosUTargetName = "ethos-u";
// -system_config=nxp-imx93: NXP Vela's default system (ethosu_performance.h).
inline constexpr const char* kNxpSystemConfig = "nxp-imx93";

class EthosUTarget : public target::Target {
 public:
  explicit EthosUTarget(target::TargetOptions options)
      : Target(kEthosUTargetName, std::move(options)) {}
  // "ethos-u55-128".
  const std::string& acceleratorConfig() const { return options().at("accelerator_config"); }
  const ethosu::NpuArchitecture& architecture() const;
  // The memories the estimates and the choice of weight buffering assume
  // (-system_config): Arm Vela's internal-default unless nxp-imx93.
  ethosu::SystemConfig system() const;
  // "Ethos-U ethos-u55-128".
  std::string displayName() const override;
  target::TargetVerdict accepts(const ir::Graph& graph, const ir::Operator& op) const override;
  std::optional<RegionOperatorCompiler> regionOperatorCompiler() const override;
  // The performance model's estimate (ethosu_performance.h, Arm Vela's
  // default system) of the command stream this configuration runs: an
  // Ethos-U operator's own when it was compiled for it, else its region
  // compiled again for it; any other operator compiled as a region of its
  // own. None where the NPU cannot run it.
  std::optional<target::OperatorEstimate> estimate(const ir::Graph& graph,
                                                   const ir::Operator& op) const override;
};

target::TargetKind ethosUTargetKind();

}  // namespace loupe::targets::ethos_u
