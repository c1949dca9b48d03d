// Whether a board's outputs are right: the reference interpreter's, byte for
// byte (the verdict `loupec run --platform` prints and the GUI's Deploy panel
// shows), and, where a golden set gave the inputs, TFLite's own outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "deploy/validation_metrics.h"
#include "ir/graph.h"

namespace loupe::deploy {

struct OutputCheck {
  std::size_t index = 0;
  bool agrees = false;
  // "output 0 agrees with the reference interpreter (bit-exact)", or where
  // it differs: "output 0 differs from the reference: 3 of 12 bytes (first
  // at byte 4: 17 vs 18)".
  std::string message;
  // How far the board's values are from the expected ones, as loupec
  // validate measures them; empty when the sizes differ.
  std::optional<ValidationMetrics> metrics;
};

// Runs the reference interpreter on `inputs` (model input order) and compares
// each of `outputs` with its output.
std::vector<OutputCheck> checkAgainstReference(
    const ir::Graph& graph, const std::vector<std::vector<std::uint8_t>>& inputs,
    const std::vector<std::vector<std::uint8_t>>& outputs);

// float32 results may differ from TFLite's in the last bits (the summation
// order); integer results may not differ at all.
inline constexpr std::uint32_t kMaxFloatUlps = 4;

// How many representable float32 values lie between a and b.
std::uint32_t ulpDistance(float a, float b);

// Compares each of `outputs` with TFLite's bytes for it (a golden set's
// output<i>.bin): integers exactly, float32 within kMaxFloatUlps. "output 0
// equals TFLite's (bit-exact)", "... within 2 ulp of TFLite's", or where it
// first differs.
std::vector<OutputCheck> checkAgainstGolden(const ir::Graph& graph,
                                            const std::vector<std::vector<std::uint8_t>>& outputs,
                                            const std::vector<std::vector<std::uint8_t>>& golden);

}  // namespace loupe::deploy
