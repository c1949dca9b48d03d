// Target `npu`: Loupe's NPU, modelled on the Arm Ethos-U55 (not real
// hardware: shown as "NPU (Ethos-U55-like)"). Option -config picks the MAC
// configuration, npu-32, npu-64, npu-128 (the default) or npu-256 MACs per
// cycle; it changes the NPU's speed, not which operators it accepts
// (npu_constraints).
#pragma once

#include "target/target.h"
#include "target/target_registry.h"
#include "targets/npu/npu_config.h"

namespace loupe::targets::npu {

inline constexpr const char* kNpuTargetName = "npu";
inline constexpr const char* kNpuDisplayName = "NPU (Ethos-U55-like)";

class NpuTarget : public target::Target {
 public:
  explicit NpuTarget(target::TargetOptions options) : Target(kNpuTargetName, std::move(options)) {}
  // "npu-128".
  const std::string& config() const { return options().at("config"); }
  // "NPU (Ethos-U55-like) npu-128".
  std::string displayName() const override;
  target::TargetVerdict accepts(const ir::Graph& graph, const ir::Operator& op) const override;
  // Its operators become NPU functions (a command stream and a driver call,
  // npu/npu_tir_function.h) on the device "npu".
  std::optional<codegen::ExternalLowering> externalLowering() const override;
  // The NPU performance model's estimate (npu/performance_model.h) for the
  // operator as this configuration would run it.
  std::optional<target::OperatorEstimate> estimate(const ir::Graph& graph,
                                                   const ir::Operator& op) const override;

 private:
  ::loupe::npu::MacConfig macConfig() const;
};

target::TargetKind npuTargetKind();

}  // namespace loupe::targets::npu
