#include "targets/npu/npu_region_compiler.h"

#include <algorithm>
#include <map>

#include "targets/npu/command_stream.h"
#include "targets/npu/performance_model.h"

namespace loupe::npu {

namespace {

// Each operation's constants start on this boundary in region 0, so the
// weight and scale streams keep the alignment legalisation gave them.
void alignTo(std::vector<std::uint8_t>& bytes, std::size_t alignment) {
  bytes.resize((bytes.size() + alignment - 1) / alignment * alignment);
}

}  // namespace

NpuCompiledRegion compileNpuRegion(const ir::Graph& graph, const ir::ExternalFunction& region,
                                   MacConfig config) {
  const NpuConfig npu = npuConfig(config);
  NpuCompiledRegion compiled;
  std::map<int, int> regionOf;  // tensor -> base-address region
  auto bind = [&](int tensor, RegionTensorRole role) {
    if (regionOf.contains(tensor)) return;
    regionOf[tensor] = kFirstFeatureMapRegion + static_cast<int>(compiled.tensors.size());
    compiled.tensors.push_back({tensor, role});
  };
  for (int t : region.inputs) bind(t, RegionTensorRole::Input);
  for (int t : region.outputs) bind(t, RegionTensorRole::Output);
  for (int index : region.operators) {
    for (int t : graph.operators.at(static_cast<std::size_t>(index)).outputs) {
      bind(t, RegionTensorRole::Intermediate);
    }
  }
  if (kFirstFeatureMapRegion + static_cast<int>(compiled.tensors.size()) > LOUPE_NPU_MAX_REGIONS) {
    throw NpuLegalizeError("region " + region.name + " has " +
                           std::to_string(compiled.tensors.size()) +
                           " feature-map tensors; a command stream addresses at most " +
                           std::to_string(LOUPE_NPU_MAX_REGIONS - kFirstFeatureMapRegion));
  }

  std::map<int, std::uint32_t> constantOffset;  // constant feature map -> offset in region 0
  // A feature map of `tensor`: its own region, or its bytes in region 0 when
  // the model holds it (constants have no storage at run time).
  auto place = [&](NpuFeatureMap& map, int tensor) {
    const ir::Tensor& t = graph.tensor(tensor);
    if (!t.isConstant) {
      map.region = regionOf.at(tensor);
      return;
    }
    if (!constantOffset.contains(tensor)) {
      alignTo(compiled.constants, kConstantsAlignment);
      constantOffset[tensor] = static_cast<std::uint32_t>(compiled.constants.size());
      compiled.constants.insert(compiled.constants.end(), t.data.begin(), t.data.end());
    }
    map.region = LOUPE_NPU_REGION_CONSTANTS;
    map.offset += constantOffset.at(tensor);
  };

  for (int index : region.operators) {
    const ir::Operator& op = graph.operators.at(static_cast<std::size_t>(index));
    NpuLegalizedOperator legalized = legalizeForNpu(graph, op, npu);
    NpuOperation& operation = legalized.operation;
    place(operation.ifm, op.inputs.at(0));
    if (usesIfm2(operation.kind)) place(operation.ifm2, op.inputs.at(1));
    place(operation.ofm, op.outputs.at(0));
    if (usesWeights(operation.kind)) {
      alignTo(compiled.constants, kConstantsAlignment);
      const auto base = static_cast<std::uint32_t>(compiled.constants.size());
      operation.weights.offset += base;
      operation.scales.offset += base;
      compiled.constants.insert(compiled.constants.end(), legalized.constants.begin(),
                                legalized.constants.end());
    }
    compiled.estimatedCycles += estimatePerformance(operation, npu).estimatedCycles;
    compiled.rawWeightBytes += legalized.rawWeightBytes;
    compiled.encodedWeightBytes += legalized.encodedWeightBytes;
    compiled.operations.push_back(operation);
  }
  compiled.commandStream = encodeCommandStream(compiled.operations);
  return compiled;
}

}  // namespace loupe::npu
