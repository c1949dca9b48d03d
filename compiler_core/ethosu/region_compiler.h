// An NPU region compiled to what Vela leaves in a .tflite: one Ethos-U
// operator whose driver payload holds the region's command stream, whose
// flash holds every operation's weights and scale records, and whose
// feature maps (the region's inputs, outputs and intermediates) lie at
// planned offsets of one scratch area. Everything that runs, compiles and
// shows an imported Vela operator (the reference interpreter through the
// functional model, the C code calling the driver, the views) then takes
// the region as it is.
//
// The scratch is planned like the workspace: each feature map lives from
// the operation that writes it (the region's inputs: from the start) to the
// last that reads it (its outputs: to the end), views (RESHAPE, SQUEEZE,
// EXPAND_DIMS) share their input's bytes, and maps whose lives overlap get
// disjoint bytes, largest first at the lowest offset that fits.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ethosu/convolution_lowering.h"
#include "ethosu/npu_architecture.h"
#include "ethosu/npu_operation.h"
#include "ir/graph.h"

namespace loupe::ethosu {

// What of an operation's constants the NPU's DMA copies from the flash into
// the scratch while the operation before it runs (Vela's weight buffering).
// The kernel then fetches its bias and scale records without the flash's
// latency on every OFM block and, with the weights, re-reads them at every
// block position from the SRAM; the copy takes scratch bytes from the
// operation before to its own.
enum class ConstantBuffering { Scales, ScalesAndWeights };
using ConstantBufferingPlan = std::map<int, ConstantBuffering>;  // by operator index

// Operators first..last (execution order, inclusive) of a graph, lowered
// once, compiled into one Ethos-U operator for `arch` with whichever
// buffering of their constants is asked for. Keeps a reference to `graph`.
class NpuRegionCompiler {
 public:
  // Throws NpuLoweringError naming the first operator the NPU cannot run.
  NpuRegionCompiler(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch);

  // The graph with the region replaced by its Ethos-U operator, the
  // constants of the operators in `buffering` copied into the scratch as
  // it says. Throws NpuLoweringError for an operator whose constants
  // cannot be buffered so (see bufferingCandidates).
  ir::Graph compile(const ConstantBufferingPlan& buffering = {}) const;

  // The buffering worth weighing: every convolution and depthwise
  // convolution after the region's first operation (the copy runs beside
  // the one before), its scales and weights. Not a fully connected layer's
  // constants, which it reads once: a copy would only move them twice and
  // hold scratch for it, and a chain of such layers (ad01) would need more
  // scratch for the copies than for its feature maps (Vela does not buffer
  // them either). compile() still copies such a layer's scales when asked
  // (Scales; never its weights).
  ConstantBufferingPlan bufferingCandidates() const;

 private:
  const ir::Graph& graph_;
  int first_, last_;
  const NpuArchitecture& arch_;
  std::vector<int> inputs_, outputs_;        // the region's, as the CPU sees them
  std::set<int> bricked_;                    // feature maps in NHCWB16
  std::map<int, LoweredOperation> lowered_;  // by operator index; views have none
};

// NpuRegionCompiler(graph, first, last, arch).compile(buffering).
ir::Graph withNpuRegion(const ir::Graph& graph, int first, int last, const NpuArchitecture& arch,
                        const ConstantBufferingPlan& buffering = {});

// The operators an Ethos-U operator of withNpuRegion stands for, as a graph
// of their own (its operators the region's, its inputs and outputs the
// region's), to compile the region again for another configuration; null
// for an operator Vela compiled.
const ir::Graph* npuRegionSource(const ir::Operator& op);

// `tensor` as the NPU reads it at `base` of region 1 (the scratch): NHWC
// (with `bricks`, NHCWB16) of batch 1, a fully connected layer's input and
// output (`flat`) as 1x1xN. Throws NpuLoweringError for a rank above 4 or a
// batch other than 1.
NpuFeatureMap featureMapOf(const ir::Graph& graph, int tensor, bool flat, std::uint64_t base,
                           bool bricks = false);

// Whether the region compiler takes `op` (an operator it lowers, or a view).
bool npuRegionTakes(const ir::Graph& graph, const ir::Operator& op);

// Why `arch` cannot run `op` (the lowering tried on it), or nothing.
std::vector<std::string> npuRefusals(const ir::Graph& graph, const ir::Operator& op,
                                     const NpuArchitecture& arch);

}  // namespace loupe::ethosu
