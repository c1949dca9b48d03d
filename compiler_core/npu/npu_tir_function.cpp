#include "npu/npu_tir_function.h"

#include "lowering/lowering_support.h"

namespace loupe::npu {

namespace {

tir::Expr bytes(std::int64_t count) {
  return tir::intImm(count, tir::ScalarType::Int32);
}

}  // namespace

tir::PrimFunc lowerToNpuFunction(const ir::Graph& graph, const ir::Operator& op, MacConfig config,
                                 const std::string& name) {
  const NpuCompiledOperator compiled = compileNpuOperator(graph, op, config);
  lowering::FunctionBuilder builder(graph, op, name);
  const int ifm = compiled.regionTensors[LOUPE_NPU_REGION_IFM];
  const int ifm2 = compiled.regionTensors[LOUPE_NPU_REGION_IFM2];
  const int ofm = compiled.regionTensors[LOUPE_NPU_REGION_OFM];
  // Parameters in the order the call passes them; a constant IFM2 (an
  // element-wise operand the model holds) travels with the function.
  const tir::Buffer ifmBuffer = builder.input(ifm, "ifm");
  const tir::Buffer ifm2Buffer = ifm2 == ir::kNoTensor ? nullptr : builder.input(ifm2, "ifm2");
  const tir::Buffer ofmBuffer = builder.param(ofm, "ofm", true);
  const tir::Buffer stream =
      builder.constant("command_stream", tir::ScalarType::UInt8, compiled.commandStream);
  const tir::Buffer constants =
      builder.constant("npu_constants", tir::ScalarType::UInt8, compiled.legalized.constants);
  const tir::Expr call = tir::callExtern(
      kNpuRunOperator, tir::ScalarType::Int32,
      {tir::resourceHandle(), tir::addressOf(stream), bytes(stream->elementCount()),
       tir::addressOf(constants), bytes(constants->elementCount()), tir::addressOf(ifmBuffer),
       bytes(graph.tensor(ifm).byteSize()), ifm2Buffer ? tir::addressOf(ifm2Buffer) : bytes(0),
       bytes(ifm2 == ir::kNoTensor ? 0 : graph.tensor(ifm2).byteSize()), tir::addressOf(ofmBuffer),
       bytes(graph.tensor(ofm).byteSize())});
  tir::PrimFunc func = builder.finish(tir::evaluateChecked(call));
  func.externHeaders.push_back("loupe/npu_device.h");
  func.attrs["target"] = "NPU (Ethos-U55-like) npu-" + std::to_string(static_cast<int>(config));
  func.attrs["npu.estimated_cycles"] = std::to_string(compiled.performance.estimatedCycles);
  if (compiled.legalized.rawWeightBytes > 0) {
    func.attrs["npu.weights"] = std::to_string(compiled.legalized.encodedWeightBytes) +
                                " bytes encoded of " +
                                std::to_string(compiled.legalized.rawWeightBytes);
  }
  return func;
}

}  // namespace loupe::npu
