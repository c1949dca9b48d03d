#include "targets/ethos_u/weight_buffering.h"

#include <optional>
#include <set>
#include <variant>
#include <vector>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/region_compiler.h"

namespace loupe::targets::ethos_u {

namespace {

struct RegionCycles {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> perOperation;  // the kernel operations', in stream order
};

// The region's NPU cycles (Vela's count: compute and unhidden DMA), per
// kernel operation: one per operator of the region that is not a view.
RegionCycles cyclesOf(const ir::Graph& compiled, int first, const ethosu::SystemConfig& system) {
  const ir::Operator& npu = compiled.operators.at(static_cast<std::size_t>(first));
  const ethosu::StreamEstimate estimate =
      ethosu::estimatePayload(analysis::ethosuPayloadOf(compiled, npu), system);
  RegionCycles cycles;
  cycles.total = estimate.npuCycles;
  for (const ethosu::OperationEstimate& op : estimate.operations) {
    const bool kernel =
        op.kind == LOUPE_ETHOSU_OPERATION_CONV || op.kind == LOUPE_ETHOSU_OPERATION_DEPTHWISE ||
        op.kind == LOUPE_ETHOSU_OPERATION_POOL || op.kind == LOUPE_ETHOSU_OPERATION_ELEMENTWISE;
    if (kernel) cycles.perOperation.push_back(op.npuCycles);
  }
  return cycles;
}

}  // namespace

ir::Graph withBufferedWeights(const ir::Graph& graph, int first, int last,
                              const ethosu::NpuArchitecture& arch,
                              const ethosu::SystemConfig& system) {
  using ethosu::ConstantBuffering;
  using ethosu::ConstantBufferingPlan;
  const ethosu::NpuRegionCompiler region(graph, first, last, arch);
  const ConstantBufferingPlan most = region.bufferingCandidates();
  ir::Graph plain = region.compile();
  if (most.empty()) return plain;
  ConstantBufferingPlan scales;
  for (const auto& [index, buffering] : most) scales[index] = ConstantBuffering::Scales;
  const RegionCycles plainCycles = cyclesOf(plain, first, system);
  const RegionCycles scalesCycles = cyclesOf(region.compile(scales), first, system);
  const RegionCycles mostCycles = cyclesOf(region.compile(most), first, system);
  // Each operation's cycles unbuffered, with its scales copied and with its
  // weights too, all others alike: the n-th kernel operation is the n-th
  // operator that is not a view. Each takes the fastest.
  ConstantBufferingPlan chosen;
  std::size_t n = 0;
  for (int i = first; i <= last; ++i) {
    if (ir::isNoCopyView(graph, graph.operators.at(static_cast<std::size_t>(i)))) continue;
    const auto candidate = most.find(i);
    if (candidate != most.end() && n < plainCycles.perOperation.size() &&
        n < scalesCycles.perOperation.size() && n < mostCycles.perOperation.size()) {
      std::uint64_t best = plainCycles.perOperation[n];
      if (scalesCycles.perOperation[n] < best) {
        best = scalesCycles.perOperation[n];
        chosen[i] = ConstantBuffering::Scales;
      }
      if (candidate->second == ConstantBuffering::ScalesAndWeights &&
          mostCycles.perOperation[n] < best) {
        chosen[i] = ConstantBuffering::ScalesAndWeights;
      }
    }
    ++n;
  }
  // What a plan costs: its NPU cycles plus its scratch bytes, a byte of
  // SRAM weighed as a cycle, so that a copy that saves less time than the
  // SRAM it adds is left out. Copies are cut back one step at a time
  // (weights and scales to scales, scales to nothing), the step that lowers
  // the cost most first: each copy also hides under an operation that
  // another copy may have made shorter.
  const auto costOf = [&](const ir::Graph& compiled) {
    const auto& attrs = std::get<ir::EthosUAttrs>(
        compiled.operators.at(static_cast<std::size_t>(first)).attributes);
    return cyclesOf(compiled, first, system).total + static_cast<std::uint64_t>(attrs.scratchBytes);
  };
  const std::uint64_t plainCost = costOf(plain);
  if (chosen.empty()) return plain;
  ir::Graph best = region.compile(chosen);
  std::uint64_t bestCost = costOf(best);
  while (true) {
    std::optional<ConstantBufferingPlan> cut;
    ir::Graph compiledCut;
    for (const auto& [index, buffering] : chosen) {
      ConstantBufferingPlan fewer = chosen;
      if (buffering == ConstantBuffering::ScalesAndWeights) {
        fewer[index] = ConstantBuffering::Scales;
      } else {
        fewer.erase(index);
      }
      ir::Graph compiled = region.compile(fewer);
      const std::uint64_t cost = costOf(compiled);
      if (cost < bestCost) {
        bestCost = cost;
        cut = std::move(fewer);
        compiledCut = std::move(compiled);
      }
    }
    if (!cut) break;
    chosen = std::move(*cut);
    best = std::move(compiledCut);
  }
  return bestCost < plainCost ? best : plain;
}

}  // namespace loupe::targets::ethos_u
