// The bound with patch-based execution (MCUNetV2): the first operators of a
// model, a chain of convolutions and pools over high-resolution tensors,
// computed strip by strip of their last output's rows, so that of the
// tensors between them only the rows one strip needs (with the halo its
// windows read) are alive at once; the rows two strips share are computed
// twice. In NHWC a strip of rows is contiguous, so each operator of the
// chain runs on a strip as on a smaller tensor.
//
// This is the analysis: which chain and how many strips would lower the
// peak most, what the peak would be, the multiply-accumulates the halo
// recomputes, and the rows and padding of each operator in each strip that
// the patch rewrite (passes/patch_execution.h) builds its operators from.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "memory/buffer_analysis.h"
#include "memory/overlap_bound.h"

namespace loupe::memory {

struct PatchStage {
  std::vector<int> operators;  // graph operator indices, in execution order
  int strips = 0;              // of the last operator's output rows
  // The bytes alive while the stage runs: its last output whole, plus the
  // strip rows of the tensors between its operators and their scratch.
  std::int64_t stageBytes = 0;
  // Per tensor between the operators (outputs of all but the last): the
  // bytes of its rows one strip needs.
  std::vector<std::int64_t> stripBytes;
  std::int64_t restBytes = 0;  // the bound over the steps after the stage
  std::int64_t bound = 0;      // the larger of the two
  std::int64_t extraMacs = 0;  // recomputed rows of the halo
};

// Rows [begin, end) of an NHWC tensor.
struct RowRange {
  int begin = 0, end = 0;
  int count() const { return end - begin; }
};

// One operator of the stage in one strip: the output rows it computes, the
// input rows their windows read, and the padding rows its windows reach
// before and after those input rows (the model's padding at the edges, none
// inside).
struct OperatorStrip {
  RowRange input, output;
  int padTop = 0, padBottom = 0;
};

// Per strip (of the last operator's output rows, ceil(height / strips) rows
// each), per operator of the chain `operators`: its rows. The operators are
// convolutions or pools over NHWC tensors, each reading the one before.
std::vector<std::vector<OperatorStrip>> patchStrips(const ir::Graph& graph,
                                                    const std::vector<int>& operators, int strips);

struct PatchBound {
  bool found = false;  // a chain of at least two operators that lowers the bound
  PatchStage best;
  std::int64_t modelMacs = 0;
  // The bound without patches, with the same allowances: what the stage
  // is measured against.
  std::int64_t wholeBound = 0;

  // best.extraMacs in percent of the model's MACs.
  double extraMacsPercent() const {
    return 100.0 * static_cast<double>(best.extraMacs) /
           static_cast<double>(modelMacs > 0 ? modelMacs : 1);
  }
};

// The best stage at the start of `analysis.order` whose recomputation is at
// most `maxExtraMacsFraction` of the model's MACs, measured against the
// bound with `allowances` (overlap_bound.h; empty: the tensor-level bound).
PatchBound patchLowerBound(const ir::Graph& graph, const WorkspaceAnalysis& analysis,
                           const std::vector<OverlapAllowance>& allowances,
                           double maxExtraMacsFraction = 0.1);

}  // namespace loupe::memory
