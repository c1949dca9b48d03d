// SVDF -> TIR, following the reference kernel step for step: the variable
// state (a parameter the generated code keeps across runs, see
// codegen/operator_state.h) shifts left by one element, the feature
// projection of the new input fills each filter's newest memory column, and
// each output unit reduces its filters' state against the time weights and
// adds the bias.
//
// The reference first reduces every filter into a scratch buffer and then
// sums a unit's filters; here each unit sums its filters directly, which is
// the same arithmetic in the same order (each filter's sum from zero, then
// added to the bias), so no scratch buffer is needed. Integer sums fold the
// input and state zero points into per-filter and per-unit starting values
// at compile time (sum w * (x - zp) = sum w * x - zp * sum w, exact in int32
// wrap-around arithmetic). The multipliers come from reference::planSvdf and
// every requantisation is loupe_requantize_acc_i32, as in the reference.
#include <cstdint>
#include <limits>

#include "lowering/lowering_rule.h"
#include "ops/svdf_plan.h"

namespace loupe::lowering {

using namespace tir;

namespace {

constexpr std::size_t kInputSlot = 0;
constexpr std::size_t kFeatureSlot = 1;
constexpr std::size_t kTimeSlot = 2;
constexpr std::size_t kBiasSlot = 3;
constexpr std::size_t kStateSlot = 4;

// Sums of `rowLength` consecutive values, one per row.
template <typename T>
std::vector<std::int64_t> rowSums(const std::vector<T>& values, std::int64_t rowLength) {
  std::vector<std::int64_t> sums(rowLength > 0 ? values.size() / rowLength : 0, 0);
  for (std::size_t i = 0; i < values.size() && rowLength > 0; ++i) {
    sums[i / static_cast<std::size_t>(rowLength)] += values[i];
  }
  return sums;
}

// values as an int32 constant table (wrapping, as the int32 sums do).
Buffer int32Table(FunctionBuilder& fb, const std::string& role,
                  const std::vector<std::int64_t>& values) {
  std::vector<std::int32_t> narrow;
  for (std::int64_t v : values) {
    narrow.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
  }
  return fb.constant(role, ScalarType::Int32, narrow);
}

}  // namespace

PrimFunc lowerSvdf(const ir::Graph& graph, const ir::Operator& op,
                   const std::string& functionName) {
  const auto& attrs = std::get<ir::SvdfAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, kInputSlot);
  const ir::Tensor& feature = *graph.input(op, kFeatureSlot);
  const ir::Tensor& time = *graph.input(op, kTimeSlot);
  const ir::Tensor* bias = graph.input(op, kBiasSlot);
  const ir::Tensor& state = *graph.input(op, kStateSlot);
  if (!feature.isConstant || !time.isConstant) {
    fail(op, "weights_feature and weights_time must be constant to compile to C");
  }
  if (bias != nullptr && !bias->isConstant) fail(op, "the bias must be constant to compile to C");
  const reference::SvdfPlan p = reference::planSvdf(graph, op);
  const int B = p.batches, I = p.inputSize, F = p.filters, M = p.memory, U = p.units;
  const int R = p.rank;

  FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.input(op.inputs[kInputSlot], "input");
  const Buffer st = fb.param(op.inputs[kStateSlot], "state", true);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer featureWeights = fb.constant(feature, "weights_feature");
  const Buffer timeWeights = fb.constant(time, "weights_time");
  const bool isFloat = input.dtype == ir::DType::Float32;
  const ScalarType accType = isFloat ? ScalarType::Float32 : ScalarType::Int32;
  std::vector<Stmt> steps;

  // 1. Every state value moves one place towards the start, across filter
  // boundaries as in TFLite Micro (the value that crosses is overwritten by
  // the new column next).
  const std::int64_t stateCount = std::int64_t{B} * F * M;
  Var i = loopVar("i");
  if (stateCount > 1) {
    steps.push_back(forLoop(i, 0, static_cast<int>(stateCount - 1),
                            store(st, refVar(i), load(st, refVar(i) + 1))));
  }

  // 2. The feature projection into each filter's newest memory column.
  Var b = loopVar("b"), f = loopVar("f"), k = loopVar("k");
  const Buffer dot = fb.local("dot", accType, 1);
  const Expr x = load(in, refVar(b) * I + refVar(k));
  const Expr w = load(featureWeights, refVar(f) * I + refVar(k));
  const Expr newest = (refVar(b) * F + refVar(f)) * M + (M - 1);
  Stmt column;
  if (isFloat) {
    column =
        seq({store(dot, 0, floatImm(0.0)), forLoop(k, 0, I, store(dot, 0, load(dot, 0) + w * x)),
             store(st, newest, load(dot, 0))});
  } else {
    Expr initial = 0;
    if (p.inputZeroPoint != 0) {
      std::vector<std::int64_t> init = rowSums(tensorValues<std::int8_t>(feature), I);
      for (std::int64_t& v : init) v *= -std::int64_t{p.inputZeroPoint};
      initial = load(int32Table(fb, "feature_init", init), refVar(f));
    }
    const ScalarType stateType = fromDType(state.dtype);
    const bool int16State = stateType == ScalarType::Int16;
    const Expr requantized =
        callIntrinsic("loupe.requantize_i32", ScalarType::Int32,
                      {load(dot, 0), p.featureMultiplier, p.featureShift, 0,
                       int16State ? std::numeric_limits<std::int16_t>::min() : -128,
                       int16State ? std::numeric_limits<std::int16_t>::max() : 127});
    // The zero point is added after the clamp and the sum narrowed to the
    // state type, as in TFLite Micro.
    column =
        seq({store(dot, 0, initial),
             forLoop(k, 0, I,
                     store(dot, 0,
                           load(dot, 0) + cast(ScalarType::Int32, w) * cast(ScalarType::Int32, x))),
             store(st, newest, cast(stateType, requantized + intImm(p.stateZeroPoint)))});
  }
  steps.push_back(forLoop(b, 0, B, forLoop(f, 0, F, allocate(dot, column))));

  // 3. Each unit: bias plus, per filter of the unit, state x time weights.
  Var b2 = loopVar("b"), u = loopVar("u"), r = loopVar("r"), m = loopVar("m");
  const Buffer acc = fb.local("acc", accType, 1);
  const Expr outIndex = refVar(b2) * U + refVar(u);
  Stmt unit;
  if (isFloat) {
    // The reference starts each unit at its bias (0.0f without one), adds
    // each filter's sum (from 0.0f, memory in order) and activates.
    const Buffer sum = fb.local("sum", ScalarType::Float32, 1);
    const Expr filter = refVar(u) * R + refVar(r);
    const Expr product = load(timeWeights, filter * M + refVar(m)) *
                         load(st, (refVar(b2) * F + filter) * M + refVar(m));
    const Expr biasValue =
        bias != nullptr ? load(fb.constant(*bias, "bias"), refVar(u)) : floatImm(0.0);
    const Stmt filterSum = allocate(
        sum,
        seq({store(sum, 0, floatImm(0.0)), forLoop(m, 0, M, store(sum, 0, load(sum, 0) + product)),
             store(acc, 0, load(acc, 0) + load(sum, 0))}));
    Expr result = load(acc, 0);
    if (attrs.activation != ir::Activation::None) {
      result = callIntrinsic("loupe.svdf_activation_f32", ScalarType::Float32,
                             {result, reference::svdfActivationCode(attrs.activation)});
    }
    unit =
        seq({store(acc, 0, biasValue), forLoop(r, 0, R, filterSum), store(out, outIndex, result)});
  } else {
    // A unit's filters are consecutive rows of weights_time and of each
    // batch's state, so its rank x memory products are one span.
    std::vector<std::int64_t> init(static_cast<std::size_t>(U), 0);
    if (bias != nullptr) {
      const auto values = tensorValues<std::int32_t>(*bias);
      std::copy(values.begin(), values.end(), init.begin());
    }
    if (p.stateZeroPoint != 0) {
      const std::vector<std::int64_t> timeSums =
          time.dtype == ir::DType::Int16 ? rowSums(tensorValues<std::int16_t>(time), R * M)
                                         : rowSums(tensorValues<std::int8_t>(time), R * M);
      for (int unitIndex = 0; unitIndex < U; ++unitIndex) {
        init[static_cast<std::size_t>(unitIndex)] -=
            std::int64_t{p.stateZeroPoint} * timeSums[static_cast<std::size_t>(unitIndex)];
      }
    }
    const Expr initial = load(int32Table(fb, "acc_init", init), refVar(u));
    const Expr product =
        cast(ScalarType::Int32, load(timeWeights, refVar(u) * (R * M) + refVar(m))) *
        cast(ScalarType::Int32, load(st, (refVar(b2) * U + refVar(u)) * (R * M) + refVar(m)));
    const Expr requantized = callIntrinsic(
        "loupe.requantize_i32", ScalarType::Int32,
        {load(acc, 0), p.outputMultiplier, p.outputShift, p.outputZeroPoint, -128, 127});
    unit = seq({store(acc, 0, initial), forLoop(m, 0, R * M, store(acc, 0, load(acc, 0) + product)),
                store(out, outIndex, cast(ScalarType::Int8, requantized))});
  }
  steps.push_back(forLoop(b2, 0, B, forLoop(u, 0, U, allocate(acc, unit))));
  return fb.finish(seq(std::move(steps)));
}

}  // namespace loupe::lowering
