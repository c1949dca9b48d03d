#include "targets/npu/npu_target.h"

#include "npu/npu_tir_function.h"
#include "targets/npu/npu_constraints.h"

namespace loupe::targets::npu {

std::string NpuTarget::displayName() const {
  return std::string(kNpuDisplayName) + " " + config();
}

target::TargetVerdict NpuTarget::accepts(const ir::Graph& graph, const ir::Operator& op) const {
  auto reasons = npuConstraintViolations(graph, op);
  if (reasons.empty()) return target::TargetVerdict::accept();
  return target::TargetVerdict::reject(std::move(reasons));
}

std::optional<codegen::ExternalLowering> NpuTarget::externalLowering() const {
  ::loupe::npu::MacConfig mac = ::loupe::npu::MacConfig::Macs128;
  for (::loupe::npu::MacConfig candidate : ::loupe::npu::kAllMacConfigs) {
    if ("npu-" + std::to_string(static_cast<int>(candidate)) == config()) mac = candidate;
  }
  return codegen::ExternalLowering{
      ::loupe::npu::kNpuDeviceName,
      [mac](const ir::Graph& graph, const ir::ExternalFunction& region, const std::string& name) {
        return ::loupe::npu::lowerToNpuRegionFunction(graph, region, mac, name);
      }};
}

target::TargetKind npuTargetKind() {
  return {kNpuTargetName,
          {{"config", {"npu-32", "npu-64", "npu-128", "npu-256"}, "npu-128"}},
          [](const target::TargetOptions& options) {
            return std::make_shared<const NpuTarget>(options);
          }};
}

}  // namespace loupe::targets::npu
