// What the reductions over constant axes (REDUCE_MAX, REDUCE_MIN, SUM) share:
// their options, which axes they reduce and the output shape, as TFLite
// Micro resolves them (negative axes count from the end, a repeated axis
// counts once, a scalar input ignores the axes), and the loop nest their
// lowerings walk the input with.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ops/shape_rule.h"

namespace tflite {
struct Operator;
}

namespace loupe::ops {

// ReducerOptions' keep_dims as an OptionAttrs "keep_dims".
ir::Attributes readReducerOptions(const tflite::Operator& op, const std::string& where);

struct ReductionPlan {
  std::vector<int> axes;  // reduced axes: non-negative, each once
  ir::Shape outputShape;
  std::int64_t reducedCount = 1;  // input elements per output element
  std::string problem;            // what the operator needs, when it cannot run
};

// The plan of reducing input 0 over the constant axes of input 1.
ReductionPlan planReduction(const ir::Graph& graph, const ir::Operator& op);

// The shape rule: output 0 has the plan's shape and input 0's type;
// nullopt while the axes are not a constant.
std::optional<InferredOutput> reductionShape(const ir::Graph& graph, const ir::Operator& op);

// One loop of a lowered reduction: a run of input dimensions that are all
// kept or all reduced, merged into one.
struct ReductionLoop {
  std::int64_t extent = 1;
  std::int64_t inStride = 1;
  bool reduced = false;
};

// The input's dimensions, outermost first, without length-1 ones and with
// neighbours of the same kind merged.
std::vector<ReductionLoop> reductionLoops(const ir::Shape& shape, const std::vector<int>& axes);

}  // namespace loupe::ops
