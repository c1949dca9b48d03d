// Target `c`: the CPU, through Loupe's C code generator. It accepts every
// operator the lowering to TIR supports (lowering::loweringProblem). Its one
// option, -mcpu (target::kCpuOption), names the CPU the kernels are lowered
// for; unset, the board's CPU decides.
#pragma once

#include "target/target.h"
#include "target/target_registry.h"

namespace loupe::targets {

class CTarget : public target::Target {
 public:
  explicit CTarget(target::TargetOptions options)
      : Target(std::string(target::kCpuTargetName), std::move(options)) {}
  std::string displayName() const override { return "CPU (C)"; }
  target::TargetVerdict accepts(const ir::Graph& graph, const ir::Operator& op) const override;
};

target::TargetKind cTargetKind();

}  // namespace loupe::targets
