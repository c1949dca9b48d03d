#include "targets/npu/npu_target.h"

#include "targets/npu/npu_constraints.h"
#include "targets/npu/npu_legalize.h"
#include "targets/npu/npu_tir_function.h"
#include "targets/npu/performance_model.h"

namespace loupe::targets::npu {

std::string NpuTarget::displayName() const {
  return std::string(kNpuDisplayName) + " " + config();
}

target::TargetVerdict NpuTarget::accepts(const ir::Graph& graph, const ir::Operator& op) const {
  auto reasons = npuConstraintViolations(graph, op);
  if (reasons.empty()) return target::TargetVerdict::accept();
  return target::TargetVerdict::reject(std::move(reasons));
}

::loupe::npu::MacConfig NpuTarget::macConfig() const {
  for (::loupe::npu::MacConfig candidate : ::loupe::npu::kAllMacConfigs) {
    if ("npu-" + std::to_string(static_cast<int>(candidate)) == config()) return candidate;
  }
  return ::loupe::npu::MacConfig::Macs128;  // the kind's default; options are checked on parsing
}

std::optional<target::OperatorEstimate> NpuTarget::estimate(const ir::Graph& graph,
                                                            const ir::Operator& op) const {
  const ::loupe::npu::NpuConfig npu = ::loupe::npu::npuConfig(macConfig());
  const ::loupe::npu::NpuLegalizedOperator legalized = ::loupe::npu::legalizeForNpu(graph, op, npu);
  const ::loupe::npu::NpuPerformance performance =
      ::loupe::npu::estimatePerformance(legalized.operation, npu);
  target::OperatorEstimate estimate;
  estimate.macs = performance.macs;
  estimate.computeCycles = performance.macCycles;
  estimate.memoryCycles = performance.memoryCycles;
  estimate.estimatedCycles = performance.estimatedCycles;
  estimate.bytesMoved = performance.bytesMoved;
  estimate.utilization = performance.utilization;
  estimate.rawWeightBytes = legalized.rawWeightBytes;
  estimate.encodedWeightBytes = legalized.encodedWeightBytes;
  return estimate;
}

std::optional<codegen::ExternalLowering> NpuTarget::externalLowering() const {
  const ::loupe::npu::MacConfig mac = macConfig();
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
