#include "targets/npu/npu_tir_function.h"

#include "lowering/lowering_support.h"
#include "targets/npu/npu_region_compiler.h"

namespace loupe::npu {

namespace {

tir::Expr u32(std::int64_t value) {
  return tir::intImm(value, tir::ScalarType::Int32);
}

tir::Stmt setRegion(int region, const tir::Buffer& buffer, std::int64_t bytes) {
  return tir::evaluateChecked(
      tir::callExtern(kNpuSetRegion, tir::ScalarType::Int32,
                      {tir::resourceHandle(), u32(region), tir::addressOf(buffer), u32(bytes)}));
}

std::string join(const std::vector<std::string>& parts) {
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : ", ") + p;
  return text;
}

}  // namespace

tir::PrimFunc lowerToNpuRegionFunction(const ir::Graph& graph, const ir::ExternalFunction& region,
                                       MacConfig config, const std::string& name) {
  const NpuCompiledRegion compiled = compileNpuRegion(graph, region, config);
  lowering::FunctionBuilder builder(graph, name);
  std::vector<tir::Stmt> body;
  const tir::Buffer stream =
      builder.constant("command_stream", tir::ScalarType::UInt8, compiled.commandStream);
  if (!compiled.constants.empty()) {
    const tir::Buffer constants =
        builder.constant("npu_constants", tir::ScalarType::UInt8, compiled.constants);
    body.push_back(setRegion(LOUPE_NPU_REGION_CONSTANTS, constants, constants->elementCount()));
  }
  // Parameters in region order: inputs, outputs, intermediates.
  std::map<RegionTensorRole, std::vector<std::string>> described;
  std::map<RegionTensorRole, int> counts;
  for (std::size_t i = 0; i < compiled.tensors.size(); ++i) {
    const NpuRegionTensor& t = compiled.tensors[i];
    const char* role = t.role == RegionTensorRole::Input    ? "input_"
                       : t.role == RegionTensorRole::Output ? "output_"
                                                            : "intermediate_";
    const std::string paramName = role + std::to_string(counts[t.role]++);
    const tir::Buffer param = builder.param(t.tensor, paramName, t.role != RegionTensorRole::Input);
    const int regionIndex = kFirstFeatureMapRegion + static_cast<int>(i);
    body.push_back(setRegion(regionIndex, param, graph.tensor(t.tensor).byteSize()));
    described[t.role].push_back(paramName + " = tensor " + std::to_string(t.tensor) + " (region " +
                                std::to_string(regionIndex) + ")");
  }
  // One driver call runs every operation of the region.
  body.push_back(tir::evaluateChecked(tir::callExtern(
      kNpuRunStream, tir::ScalarType::Int32,
      {tir::resourceHandle(), tir::addressOf(stream), u32(stream->elementCount())})));
  tir::PrimFunc func = builder.finish(tir::seq(std::move(body)));
  func.externHeaders.push_back("loupe/npu_device.h");
  std::vector<std::string> operators;
  for (int index : region.operators) {
    operators.push_back("#" + std::to_string(index) + " " +
                        graph.operators.at(static_cast<std::size_t>(index)).typeName());
  }
  func.attrs["operators"] = join(operators);
  func.attrs["region"] = region.name;
  func.attrs["region.inputs"] = join(described[RegionTensorRole::Input]);
  func.attrs["region.outputs"] = join(described[RegionTensorRole::Output]);
  func.attrs["region.intermediates"] = join(described[RegionTensorRole::Intermediate]);
  // The planner may give intermediates of different steps one address, so
  // two parameters can alias (the C prototype drops `restrict`); the NPU
  // runs the operations in order, so a tensor is dead before its storage is
  // written again.
  func.attrs["params_may_alias"] = "intermediates of different operations share storage";
  func.attrs["target"] = "NPU (Ethos-U55-like) npu-" + std::to_string(static_cast<int>(config));
  func.attrs["npu.operations"] = std::to_string(compiled.operations.size()) + " in one stream";
  func.attrs["npu.estimated_cycles"] = std::to_string(compiled.estimatedCycles);
  if (compiled.rawWeightBytes > 0) {
    func.attrs["npu.weights"] = std::to_string(compiled.encodedWeightBytes) + " bytes encoded of " +
                                std::to_string(compiled.rawWeightBytes);
  }
  return func;
}

}  // namespace loupe::npu
