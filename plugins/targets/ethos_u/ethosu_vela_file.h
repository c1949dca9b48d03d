// What a Vela-compiled .tflite hands the Ethos-U driver: for each custom
// operator "ethos-u", the driver payload (input 0, "COP1"...), the flash data
// (input 1: encoded weights, scale records, lookup tables) and the sizes of
// the scratch and fast scratch areas (inputs 2 and 3). Enough for the
// performance estimate and for running the payload on the functional model
// (ethosu_invoke_v3); the importer's own reader (compiler_core/frontend)
// places the operator in a graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <vector>

namespace loupe::ethosu {

struct VelaCustomOperator {
  std::vector<std::uint8_t> payload;
  std::vector<std::uint8_t> flash;  // empty when the operator has none
  std::size_t scratchBytes = 0;
  std::size_t fastScratchBytes = 0;
};

class VelaFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every "ethos-u" operator of the model's first subgraph, in order. Throws
// VelaFileError when the flatbuffer does not verify or an operator lacks its
// payload.
std::vector<VelaCustomOperator> readVelaCustomOperators(std::span<const std::uint8_t> tflite);
std::vector<VelaCustomOperator> readVelaCustomOperators(const std::filesystem::path& path);

}  // namespace loupe::ethosu
