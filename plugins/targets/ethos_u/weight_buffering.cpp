#include "targets/ethos_u/weight_buffering.h"

#include <map>
#include <optional>
#include <set>
#include <variant>
#include <vector>

#include "analysis/ethosu_command_listing.h"
#include "ethosu/region_compiler.h"
#include "targets/ethos_u/ethosu_operator_cycles.h"

namespace loupe::targets::ethos_u {

namespace {

// The region's NPU cycles (Vela's count: compute and unhidden DMA).
std::uint64_t npuCyclesOf(const ir::Graph& compiled, int first,
                          const ethosu::SystemConfig& system) {
  const ir::Operator& npu = compiled.operators.at(static_cast<std::size_t>(first));
  return ethosu::estimatePayload(analysis::ethosuPayloadOf(compiled, npu), system).npuCycles;
}

// Each operator first..last of `graph` its NPU cycles in `compiled` (its
// model operators' shares, as the graph shows them: a concatenation's
// copies and the DMAs before an operation are its own).
std::map<int, std::uint64_t> cyclesPerOperator(const ir::Graph& graph, int first, int last,
                                               const ir::Graph& compiled,
                                               const ethosu::SystemConfig& system) {
  std::map<int, std::uint64_t> ofModelOperator;
  for (const ModelOperatorCycles& figure : npuCyclesPerModelOperator(
           compiled, compiled.operators.at(static_cast<std::size_t>(first)), &system)) {
    ofModelOperator[figure.modelOperator] += figure.npuCycles;
  }
  std::map<int, std::uint64_t> cycles;
  for (int i = first; i <= last; ++i) {
    for (const int m : graph.operators.at(static_cast<std::size_t>(i)).modelOperators()) {
      cycles[i] += ofModelOperator[m];
    }
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
  const auto plainCycles = cyclesPerOperator(graph, first, last, plain, system);
  const auto scalesCycles = cyclesPerOperator(graph, first, last, region.compile(scales), system);
  const auto mostCycles = cyclesPerOperator(graph, first, last, region.compile(most), system);
  // Each operation's cycles unbuffered, with its scales copied and with its
  // weights too, all others alike. Each takes the fastest.
  ConstantBufferingPlan chosen;
  for (const auto& [i, candidate] : most) {
    std::uint64_t best = plainCycles.at(i);
    if (scalesCycles.at(i) < best) {
      best = scalesCycles.at(i);
      chosen[i] = ConstantBuffering::Scales;
    }
    if (candidate == ConstantBuffering::ScalesAndWeights && mostCycles.at(i) < best) {
      chosen[i] = ConstantBuffering::ScalesAndWeights;
    }
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
    return npuCyclesOf(compiled, first, system) + static_cast<std::uint64_t>(attrs.scratchBytes);
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
