// Whether a board's outputs are the reference interpreter's, byte for byte:
// the verdict `loupec run --platform` prints and the GUI's Deploy panel shows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::project {

struct OutputCheck {
  std::size_t index = 0;
  bool agrees = false;
  // "output 0 agrees with the reference interpreter (bit-exact)", or where
  // it differs: "output 0 differs from the reference: 3 of 12 bytes (first
  // at byte 4: 17 vs 18)".
  std::string message;
};

// Runs the reference interpreter on `inputs` (model input order) and compares
// each of `outputs` with its output.
std::vector<OutputCheck> checkAgainstReference(
    const ir::Graph& graph, const std::vector<std::vector<std::uint8_t>>& inputs,
    const std::vector<std::vector<std::uint8_t>>& outputs);

}  // namespace loupe::project
