// What the NPU tests share: the shared models with their constant operators,
// running a compiled operator on the software NPU (the C runtime's
// LoupeNpuExecute) with its regions bound to byte buffers, and whether an
// operator of a model is one the NPU accepts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "targets/npu/npu_operator_compiler.h"

namespace loupe::test {

// The int8 models of tests/data/models the NPU tests use.
std::vector<std::string> npuModelNames();

ir::Graph loadModel(const std::string& name);

// The NPU's operator set (docs/npu.md): the operator types, int8 activations,
// depth multiplier 1, identical element-wise shapes, stride 1..3, dilation
// 1..2, convolution kernels up to 64x64 and pooling kernels up to 8x8. The legaliser must
// accept every operator this says yes to.
bool isNpuEligible(const ir::Graph& graph, const ir::Operator& op);

struct NpuRun {
  std::int32_t status = 0;
  std::vector<std::uint8_t> ofm;
};

// Runs the operator's command stream with region 0 its constants, 2 and 3
// the inputs, 4 an OFM buffer of `ofmBytes`.
NpuRun runOnSoftwareNpu(const npu::NpuCompiledOperator& compiled,
                        const std::vector<std::uint8_t>& ifm, const std::vector<std::uint8_t>& ifm2,
                        std::size_t ofmBytes);

}  // namespace loupe::test
