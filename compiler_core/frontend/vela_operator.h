// The custom operator "ethos-u" that Arm's Vela compiler leaves in a .tflite:
// a precompiled Ethos-U command stream with its weights. Its inputs are, in
// order, the command stream (constant uint8), the weights and biases Vela
// encoded ("flash", constant), the scratch and fast scratch areas, then the
// model's feature maps. Loupe shows what it holds but cannot run it: the
// stream drives real Ethos-U registers, and Loupe's NPU (Ethos-U55-like) is a
// model that compiles from the original operators instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/graph.h"

namespace loupe::frontend {

inline constexpr std::string_view kVelaCustomCode = "ethos-u";

struct VelaOperator {
  std::int64_t commandStreamBytes = 0;
  std::int64_t flashBytes = 0;        // 0 when the input is absent
  std::int64_t scratchBytes = 0;      // 0 when the input is absent
  std::int64_t fastScratchBytes = 0;  // 0 when the input is absent
  // The first four bytes of the stream when they are printable: the Ethos-U
  // driver's payload header ("COP1").
  std::string magic;
};

// What a Vela operator holds, or nullopt when `op` is not one (not the custom
// code "ethos-u", or its input 0 is not a constant command stream).
std::optional<VelaOperator> velaOperator(const ir::Graph& graph, const ir::Operator& op);

// "Ethos-U command stream of 8,168 bytes (COP1), 260,480 bytes of encoded
// weights, 74,464 + 74,464 bytes of scratch".
std::string describeVelaOperator(const VelaOperator& vela);

// Why Loupe cannot compile or run it, starting with "precompiled Ethos-U
// command streams (from Vela) cannot run in Loupe: ".
std::string velaRefusal(const VelaOperator& vela);

}  // namespace loupe::frontend
