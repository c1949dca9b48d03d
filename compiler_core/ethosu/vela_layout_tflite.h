// A model compiled for the Ethos-U written back as a .tflite file in the
// layout Arm's Vela gives its output, so that TFLite Micro with Arm's driver
// runs it and Loupe's importer reopens it ([ethos-u-read]). Each NPU region
// the compiler made (an Ethos-U operator of ethosu::withNpuRegion) becomes
// one CUSTOM operator "ethos-u" whose inputs are, in Vela's order, the
// driver payload ("COP1" and the command stream, a constant), the flash (the
// region's encoded weights and scale records, a constant), the scratch and
// fast-scratch areas, then the region's input feature maps, and whose
// outputs are its output feature maps. The metadata
// "OfflineMemoryAllocation" gives each region's scratch its own bytes of
// TFLite Micro's arena and each feature map its place inside it, where the
// command stream addresses it; TFLite Micro plans every other tensor itself.
//
// The operators the CPU runs are copied from the source file as they are
// there (builtin options, custom options, tensors, quantisation, buffers),
// not rebuilt from Loupe's graph: what TFLite Micro reads stays TFLite's own.
// The copy goes through Loupe's schema subset (frontend/tflite_schema.fbs):
// fields the subset lacks are not written (Model.signature_defs, the
// deprecated metadata_buffer, Operator.builtin_options_2, sparsity beyond
// its traversal order); TFLite Micro reads none of them.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::ethosu {

// What cannot be written in Vela's layout, said for the user: no NPU region,
// a model of several subgraphs, one already compiled by Vela, a tensor two
// regions would need at two places.
class VelaLayoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct VelaLayoutTflite {
  std::vector<std::uint8_t> bytes;  // the .tflite file
  int npuOperators = 0;             // "ethos-u" custom operators
  int cpuOperators = 0;             // the source's operators kept
  std::int64_t payloadBytes = 0;    // of every region's driver payload
  std::int64_t flashBytes = 0;      // of every region's flash
  std::int64_t scratchBytes = 0;    // of the arena the scratch areas take
};

// `source` is the .tflite the graph was imported from; `compiled` that graph
// after the partitioning passes (driver::partitionModel), where each NPU
// region is one Ethos-U operator standing for its model operators. Throws
// VelaLayoutError.
VelaLayoutTflite velaLayoutTflite(std::span<const std::uint8_t> source, const ir::Graph& compiled);

}  // namespace loupe::ethosu
