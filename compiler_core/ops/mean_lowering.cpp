// MEAN -> TIR, one output element at a time: loops over the kept dimensions
// outside, the sum of the element's inputs in a register-sized accumulator
// inside, then the arithmetic reference::planMean chose, as the reference
// kernel does it:
//   float32          float sum in input order, divided by the count;
//   int8/int16       int32 sum requantised in fixed point by
//                    loupe_mean_requantize (loupe/quantized_mean.h), the
//                    helper the reference calls, with the plan's constants.
// Adjacent dimensions that are both kept or both reduced merge, and length-1
// dimensions drop out, so MEAN over H and W of NHWC is three loops (batch,
// channel, pixels). Per output element the reduced loops visit its inputs in
// row-major order, the order in which the reference adds them (which matters
// for float sums).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "lowering/lowering_rule.h"
#include "ops/mean_plan.h"
#include "reference/kernel_checks.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Sums of at most this many elements are unrolled.
constexpr std::int64_t kUnrolledSum = 8;

struct MeanDim {
  std::int64_t extent = 1;
  std::int64_t inStride = 1;
  bool reduced = false;
};

// The input's dimensions without length-1 ones, neighbours of the same kind
// merged; outermost first.
std::vector<MeanDim> meanDims(const ir::Shape& shape, const std::vector<int>& axes) {
  std::vector<MeanDim> dims;
  std::int64_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    const bool reduced = std::find(axes.begin(), axes.end(), static_cast<int>(d)) != axes.end();
    if (shape[d] != 1) {
      if (!dims.empty() && dims.back().reduced == reduced) {
        dims.back().extent *= shape[d];
      } else {
        dims.push_back({shape[d], stride, reduced});
      }
    }
    stride *= shape[d];
  }
  return {dims.rbegin(), dims.rend()};
}

// The value stored for one output element from its accumulator `sum` of
// plan.reducedCount (> 0) inputs.
Expr meanOf(const reference::MeanPlan& plan, const Expr& sum, ScalarType outType) {
  const std::int64_t count = plan.reducedCount;
  switch (plan.arithmetic) {
    case reference::MeanArithmetic::Float:
      return sum / floatImm(static_cast<double>(count));
    case reference::MeanArithmetic::Requantize: {
      const bool int8 = outType == ScalarType::Int8;
      const int qMin =
          int8 ? std::numeric_limits<std::int8_t>::min() : std::numeric_limits<std::int16_t>::min();
      const int qMax =
          int8 ? std::numeric_limits<std::int8_t>::max() : std::numeric_limits<std::int16_t>::max();
      return cast(outType, callIntrinsic("loupe.mean_requantize", ScalarType::Int32,
                                         {sum, plan.zeroPointSum, plan.multiplier, plan.shift,
                                          plan.outputZeroPoint, qMin, qMax}));
    }
  }
  return sum;
}

}  // namespace

PrimFunc lowerMean(const ir::Graph& graph, const ir::Operator& op,
                   const std::string& functionName) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& output = graph.output(op, 0);
  const reference::MeanPlan plan =
      reference::planMean(input, output, *reference::constantIntegers(*graph.input(op, 1))).plan;
  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.input(op.inputs[0], "input");
  Buffer out = fb.param(op.outputs[0], "output", true);
  const bool isFloat = plan.arithmetic == reference::MeanArithmetic::Float;
  Buffer acc = fb.local("acc", isFloat ? ScalarType::Float32 : ScalarType::Int32, 1);

  std::vector<Var> keptVars, reducedVars;
  std::vector<std::int64_t> keptExtents, reducedExtents;
  Expr inAt = 0;
  for (const MeanDim& dim : meanDims(input.shape, plan.axes)) {
    Var v = loopVar(dim.reduced ? "r" + std::to_string(reducedVars.size())
                                : "k" + std::to_string(keptVars.size()));
    inAt = inAt + refVar(v) * static_cast<int>(dim.inStride);
    (dim.reduced ? reducedVars : keptVars).push_back(v);
    (dim.reduced ? reducedExtents : keptExtents).push_back(dim.extent);
  }
  // The output holds the kept dimensions in row-major order.
  Expr outAt = 0;
  for (std::size_t k = 0; k < keptVars.size(); ++k) {
    outAt = outAt * static_cast<int>(keptExtents[k]) + refVar(keptVars[k]);
  }

  Expr value = load(in, inAt);
  Expr update;
  if (isFloat) {
    update = load(acc, 0) + value;
  } else {
    // An int32 sum of many int16 values can leave the int32 range; it wraps
    // as the reference's does, without C's undefined overflow.
    const std::int64_t largest = in->type == ScalarType::Int8 ? 128 : 32768;
    value = cast(ScalarType::Int32, value);
    update = plan.reducedCount * largest > std::numeric_limits<std::int32_t>::max()
                 ? callIntrinsic("loupe.wrapping_add_i32", ScalarType::Int32, {load(acc, 0), value})
                 : load(acc, 0) + value;
  }
  Stmt sum = store(acc, 0, update);
  for (std::size_t r = reducedVars.size(); r-- > 0;) {
    sum = forLoop(reducedVars[r], 0, static_cast<int>(reducedExtents[r]), sum,
                  plan.reducedCount <= kUnrolledSum ? ForKind::Unrolled : ForKind::Serial);
  }
  const Expr zero = isFloat ? floatImm(0.0) : intImm(0);
  Stmt element = allocate(acc, seq({store(acc, 0, zero), sum,
                                    store(out, outAt, meanOf(plan, load(acc, 0), out->type))}));
  // Nothing to sum (a reduced dimension of length 0): every output keeps the
  // zero the reference starts from.
  if (plan.reducedCount == 0) element = store(out, outAt, cast(out->type, zero));
  for (std::size_t k = keptVars.size(); k-- > 0;) {
    element = forLoop(keptVars[k], 0, static_cast<int>(keptExtents[k]), element);
  }
  return fb.finish(element);
}

}  // namespace loupe::lowering
