#include "targets/npu/npu_operator_compiler.h"

#include <algorithm>

#include "targets/npu/command_stream.h"

namespace loupe::npu {

NpuCompiledOperator compileNpuOperator(const ir::Graph& graph, const ir::Operator& op,
                                       MacConfig config) {
  const NpuConfig npu = npuConfig(config);
  NpuCompiledOperator compiled;
  compiled.legalized = legalizeForNpu(graph, op, npu);
  const NpuOperation& operation = compiled.legalized.operation;
  compiled.commandStream = encodeCommandStream(std::span(&operation, 1));
  std::fill(std::begin(compiled.regionTensors), std::end(compiled.regionTensors), ir::kNoTensor);
  compiled.regionTensors[LOUPE_NPU_REGION_IFM] = op.inputs.at(0);
  if (usesIfm2(operation.kind)) compiled.regionTensors[LOUPE_NPU_REGION_IFM2] = op.inputs.at(1);
  compiled.regionTensors[LOUPE_NPU_REGION_OFM] = op.outputs.at(0);
  compiled.performance = estimatePerformance(operation, npu);
  return compiled;
}

}  // namespace loupe::npu
