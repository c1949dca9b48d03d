// The NPU back end's entry point for a region of several operators the
// partitioner gave to the NPU (one ir::ExternalFunction): every operator
// legalised into one NPU operation, all of them in ONE command stream, as
// Vela compiles an Ethos-U subgraph, so the driver starts the NPU once per
// region instead of once per operator.
//
// Operations of one stream address different tensors, so each feature-map
// tensor gets a base-address region of its own (stream version 2,
// docs/npu.md): region 0 holds every operation's constants (scale and
// weight streams, and constant feature maps such as an element-wise operand
// the model holds), region 1 is scratch (unused), and regions 2.. are the
// region's inputs, then its outputs, then its intermediate tensors. Giving
// tensors regions rather than offsets keeps the stream independent of the
// memory plan: the planner places the intermediates afterwards, at operator
// granularity, and the generated function binds each region to whatever
// address the AOT code passes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/partition.h"
#include "targets/npu/npu_config.h"
#include "targets/npu/npu_legalize.h"

namespace loupe::npu {

// What a feature-map region (2..) is bound to, for the function's parameters.
enum class RegionTensorRole { Input, Output, Intermediate };

struct NpuRegionTensor {
  int tensor = ir::kNoTensor;
  RegionTensorRole role = RegionTensorRole::Input;
};

struct NpuCompiledRegion {
  // One per operator of the region, in region order, with its feature maps
  // and streams moved to the region's base-address regions and offsets.
  std::vector<NpuOperation> operations;
  std::vector<std::uint8_t> commandStream;  // every operation, in order
  std::vector<std::uint8_t> constants;      // region 0
  // Region 2 + i is bound to tensors[i].
  std::vector<NpuRegionTensor> tensors;
  std::int64_t estimatedCycles = 0;  // the performance model's, summed
  std::int64_t rawWeightBytes = 0;
  std::int64_t encodedWeightBytes = 0;
};

// The first base-address region of the feature maps.
inline constexpr int kFirstFeatureMapRegion = LOUPE_NPU_REGION_IFM;

// Throws NpuLegalizeError for an operator the NPU cannot run, and for a
// region with more tensors than a stream has regions.
NpuCompiledRegion compileNpuRegion(const ir::Graph& graph, const ir::ExternalFunction& region,
                                   MacConfig config);

}  // namespace loupe::npu
