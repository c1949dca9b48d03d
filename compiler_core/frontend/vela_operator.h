// The custom operator "ethos-u" that Arm's Vela compiler leaves in a .tflite:
// a precompiled Ethos-U command stream with its weights. Its inputs in the
// file are, in order, the driver payload (constant uint8: "COP1", the NPU it
// was compiled for, the command stream), the weights and biases Vela encoded
// ("flash", constant), the scratch and fast-scratch areas, then the model's
// feature maps; its outputs are feature maps. TFLite Micro places the
// feature maps inside the scratch area at the offsets of the model's
// metadata "OfflineMemoryAllocation", where the command stream addresses
// them. The importer turns it into an ir::OpType::EthosU operator, run by the
// Ethos-U functional model (runtime_core/crt, loupe/ethosu/).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace loupe::frontend {

inline constexpr std::string_view kVelaCustomCode = "ethos-u";

// `op` (inputs and outputs as the file has them) as an EthosU operator:
// operands checked, payload decoded and validated, the feature maps' offsets
// in the scratch arena taken from `arenaOffsets` (OfflineMemoryAllocation:
// one per tensor of the subgraph, -1 for none; empty when the model has
// none). The scratch tensors leave the operands (see ir::EthosUAttrs).
// Throws ImportError starting with `where`.
ir::Operator velaOperatorToEthosU(const ir::Graph& graph, ir::Operator op,
                                  const std::vector<std::int32_t>& arenaOffsets,
                                  const std::string& where);

// The offsets of the metadata "OfflineMemoryAllocation" ([version,
// subgraph, count, offsets...], int32 little-endian) of a model with
// `tensorCount` tensors in subgraph 0, checked. Throws ImportError.
std::vector<std::int32_t> parseOfflineMemoryAllocation(std::span<const std::uint8_t> bytes,
                                                       std::size_t tensorCount);

// "Ethos-U command stream for ethos-u55-256: 8,168 bytes, 31 NPU operations,
// 260,480 bytes of encoded weights, 74,464 bytes of scratch".
std::string describeEthosUOperator(const ir::Graph& graph, const ir::Operator& op);

}  // namespace loupe::frontend
