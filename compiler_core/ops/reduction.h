// What the reductions over constant axes (REDUCE_MAX, REDUCE_MIN, SUM,
// REDUCE_ALL) share:
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
#include "tir/stmt.h"

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

// The loop nest a lowered reduction walks its input with: a loop per run of
// kept dimensions (the output's elements, in row-major order) around a loop
// per run of reduced ones, length-1 dimensions dropped and neighbours of the
// same kind merged.
class ReductionNest {
 public:
  ReductionNest(const ir::Shape& inputShape, const std::vector<int>& axes);

  // The input element at the loops' current position, and the output
  // element the reduced loops fold it into.
  const tir::Expr& inputIndex() const { return inputIndex_; }
  const tir::Expr& outputIndex() const { return outputIndex_; }

  // For each output element, inside `local`'s allocation: `start`, then
  // `step` for each of its `reducedCount` input elements (unrolled up to
  // `unrollUpTo` of them), then `finish`.
  tir::Stmt build(const tir::Buffer& local, tir::Stmt start, tir::Stmt step, tir::Stmt finish,
                  std::int64_t reducedCount, std::int64_t unrollUpTo) const;

 private:
  struct Loop {
    tir::Var var;
    std::int64_t extent;
  };
  std::vector<Loop> kept_, reduced_;
  tir::Expr inputIndex_ = 0, outputIndex_ = 0;
};

// The lowering of a reduction over an input with no element: every output
// element is `value`.
tir::Stmt fillOutput(const tir::Buffer& output, std::int64_t count, const tir::Expr& value);

}  // namespace loupe::ops
