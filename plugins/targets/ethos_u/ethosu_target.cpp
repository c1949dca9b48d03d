#include "targets/ethos_u/ethosu_target.h"

#include <algorithm>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/region_compiler.h"
#include "targets/ethos_u/ethosu_performance.h"
#include "targets/ethos_u/weight_buffering.h"

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

ethosu::SystemConfig EthosUTarget::system() const {
  const loupe_ethosu_npu_config& npu = architecture().config;
  return options().at("system_config") == kNxpSystemConfig ? ethosu::nxpVelaDefaultSystem(npu)
                                                           : ethosu::velaDefaultSystem(npu);
}

std::optional<target::Target::RegionOperatorCompiler> EthosUTarget::regionOperatorCompiler() const {
  const ethosu::NpuArchitecture* arch = &architecture();
  return RegionOperatorCompiler(
      [arch, system = system()](const ir::Graph& graph, int first, int last) {
        return withBufferedWeights(graph, first, last, *arch, system);
      });
}

namespace {

// The estimate of Ethos-U operator `op` of `graph`: its payload on the NPU
// it was compiled for, in `system`.
target::OperatorEstimate streamEstimate(const ir::Graph& graph, const ir::Operator& op,
                                        const ethosu::SystemConfig& system) {
  const frontend::EthosUPayload payload = analysis::ethosuPayloadOf(graph, op);
  const loupe_ethosu_npu_config npu = ethosu::npuConfigOf(payload);
  const ethosu::StreamEstimate stream = ethosu::estimatePayload(payload, system);
  target::OperatorEstimate estimate;
  // The operator's multiply-accumulates (a Vela file's as its stream counts
  // them, a region Loupe compiled as its model operators do).
  estimate.macs = std::get<ir::EthosUAttrs>(op.attributes).macs;
  estimate.computeCycles = static_cast<std::int64_t>(stream.npuCycles);
  for (const ethosu::MemoryTraffic& traffic : stream.memory) {
    estimate.memoryCycles =
        std::max(estimate.memoryCycles, static_cast<std::int64_t>(traffic.accessCycles));
    estimate.bytesMoved += static_cast<std::int64_t>(traffic.bytesRead + traffic.bytesWritten);
  }
  estimate.estimatedCycles = std::max(estimate.computeCycles, estimate.memoryCycles);
  const ethosu::NpuArchitecture* arch = ethosu::findNpuArchitecture(npu.accelerator);
  const double macsPerCycle = arch != nullptr ? static_cast<double>(arch->macs) * arch->cores : 0;
  if (estimate.estimatedCycles > 0 && macsPerCycle > 0) {
    estimate.utilization = static_cast<double>(estimate.macs) / macsPerCycle /
                           static_cast<double>(estimate.estimatedCycles);
  }
  // The flash holds the encoded weights and the 10-byte scale records.
  if (op.inputs.size() > 1 && op.inputs[1] != ir::kNoTensor) {
    estimate.encodedWeightBytes = graph.tensor(op.inputs[1]).byteSize();
  }
  if (const ir::Graph* source = ethosu::npuRegionSource(op)) {
    for (const ir::Operator& o : source->operators) {
      const bool weighted = o.type == ir::OpType::Conv2D || o.type == ir::OpType::DepthwiseConv2D ||
                            o.type == ir::OpType::FullyConnected ||
                            o.type == ir::OpType::TransposeConv;
      if (weighted && o.inputs.size() > 1 && o.inputs[1] != ir::kNoTensor) {
        estimate.rawWeightBytes += source->tensor(o.inputs[1]).byteSize();
      }
    }
  }
  return estimate;
}

}  // namespace

std::optional<target::OperatorEstimate> EthosUTarget::estimate(const ir::Graph& graph,
                                                               const ir::Operator& op) const {
  const ethosu::NpuArchitecture& arch = architecture();
  try {
    if (op.type != ir::OpType::EthosU) {
      const ir::Graph region = ethosu::withNpuRegion(graph, op.index, op.index, arch);
      return streamEstimate(region, region.operators.at(static_cast<std::size_t>(op.index)),
                            system());
    }
    const auto& attrs = std::get<ir::EthosUAttrs>(op.attributes);
    if (attrs.accelerator == arch.accelerator) return streamEstimate(graph, op, system());
    const ir::Graph* source = ethosu::npuRegionSource(op);
    if (source == nullptr) return std::nullopt;  // Vela's, for another NPU
    const ir::Graph region = withBufferedWeights(
        *source, 0, static_cast<int>(source->operators.size()) - 1, arch, system());
    return streamEstimate(region, region.operators.front(), system());
  } catch (const std::exception&) {
    // Lowering, decoding or the model refused it: no estimate to give.
    return std::nullopt;
  }
}

target::TargetKind ethosUTargetKind() {
  return {kEthosUTargetName,
          {{"accelerator_config",
            {"ethos-u55-32", "ethos-u55-64", "ethos-u55-128", "ethos-u55-256", "ethos-u65-256",
             "ethos-u65-512"},
            "ethos-u55-128"},
           // Where the constants and the scratch live and how fast, as Vela's
           // --system-config: unset, Arm Vela's internal-default.
           {"system_config", {"internal-default", kNxpSystemConfig}, "", false}},
          [](const target::TargetOptions& options) {
            return std::make_shared<const EthosUTarget>(options);
          }};
}

}  // namespace loupe::targets::ethos_u
