// The NPU back end's entry point for code generation: one graph operator the
// partitioner gave to the NPU in, everything the generated C needs out: the
// command stream (for LoupeNpuExecute, loupe/npu.h), the constants to bind as
// region 0, which tensor each feature-map region must be bound to, and the
// cycle estimate. Region sizes: the constants' size, and each tensor's bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "targets/npu/npu_config.h"
#include "targets/npu/npu_legalize.h"
#include "targets/npu/performance_model.h"

namespace loupe::npu {

struct NpuCompiledOperator {
  NpuLegalizedOperator legalized;  // the operation, constants and weight sizes
  std::vector<std::uint8_t> commandStream;
  // Graph tensor bound to each region (ir::kNoTensor for none): region 2 the
  // IFM, 3 the IFM2, 4 the OFM. Region 0 is `legalized.constants`.
  int regionTensors[LOUPE_NPU_REGION_COUNT];
  NpuPerformance performance;
};

// Throws NpuLegalizeError for an operator the NPU cannot run.
NpuCompiledOperator compileNpuOperator(const ir::Graph& graph, const ir::Operator& op,
                                       MacConfig config);

}  // namespace loupe::npu
