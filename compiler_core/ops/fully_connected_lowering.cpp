// FULLY_CONNECTED -> TIR: one loop over batches and units, an inner dot
// product over the depth. The input zero point is folded at compile time:
// sum_d w*(x + x_off) = sum_d w*x + x_off*sum_d w, so the bias table holds
// bias + x_off*sum_d w and the inner loop is a plain multiply-accumulate.
// This is exact in int32 wrap-around arithmetic, as TFLite's int32 sum is.
// Requantisation uses the multipliers the reference kernel uses.
#include <cstdint>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"
#include "reference/quantized_params.h"

namespace loupe::lowering {

using namespace tir;

namespace {

struct FcShape {
  std::int64_t batches = 0, units = 0, depth = 0;
};

FcShape fcShape(const ir::Tensor& weights, const ir::Tensor& output) {
  FcShape s;
  s.units = output.shape.back();
  s.depth = weights.shape.back();
  s.batches = s.units > 0 ? output.elementCount() / s.units : 0;
  return s;
}

}  // namespace

PrimFunc lowerFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& weights = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!weights.isConstant) fail(op, "weights must be constant to compile to C");
  if (bias != nullptr && !bias->isConstant) fail(op, "bias must be constant to compile to C");
  const FcShape s = fcShape(weights, output);

  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.param(op.inputs[0], "input", false);
  Buffer out = fb.param(op.outputs[0], "output", true);
  Var b = loopVar("b"), u = loopVar("u"), d = loopVar("d");
  const Expr xAt = load(in, refVar(b) * static_cast<int>(s.depth) + refVar(d));
  const Expr outIndex = refVar(b) * static_cast<int>(s.units) + refVar(u);

  if (input.dtype == ir::DType::Float32) {
    // Float: accumulate in depth order from zero, add the bias last, clamp —
    // the reference's order of float operations.
    Buffer w = fb.constant(weights, "weights");
    const reference::FloatRange range = reference::floatActivationRange(attrs.activation);
    Buffer acc = fb.local("acc", ScalarType::Float32, 1);
    Expr total = load(acc, 0);
    if (bias != nullptr) total = total + load(fb.constant(*bias, "bias"), refVar(u));
    Stmt body = allocate(
        acc,
        seq({store(acc, 0, floatImm(0.0)),
             forLoop(d, 0, static_cast<int>(s.depth),
                     store(acc, 0,
                           load(acc, 0) +
                               load(w, refVar(u) * static_cast<int>(s.depth) + refVar(d)) * xAt)),
             store(out, outIndex,
                   callIntrinsic("loupe.clamp_f32", ScalarType::Float32,
                                 {total, floatImm(range.min), floatImm(range.max)}))}));
    return fb.finish(
        forLoop(b, 0, static_cast<int>(s.batches), forLoop(u, 0, static_cast<int>(s.units), body)));
  }

  const bool perChannel = weights.quantization.isPerChannel();
  const std::vector<reference::QuantizedMultiplier> multipliers =
      reference::fullyConnectedMultipliers(input, weights, output, static_cast<int>(s.units));
  const reference::IntRange range = reference::quantizedActivationRange(attrs.activation, output);
  const std::int64_t weightsOffset = perChannel ? 0 : -weights.quantization.zeroPoint();
  const bool int16Input = input.dtype == ir::DType::Int16;
  const std::int64_t inputOffset = int16Input ? 0 : -input.quantization.zeroPoint();
  const bool wideBias = bias != nullptr && bias->dtype == ir::DType::Int64;
  // int16 x int8 products overflow int32 sums on deep layers; TFLite sums
  // them in int64 and truncates (int32 bias) or requantises the int64 sum.
  const ScalarType accType = int16Input ? ScalarType::Int64 : ScalarType::Int32;

  // Initial accumulator per unit: bias, plus the folded input offset when the
  // weights are symmetric (their offset is zero).
  std::vector<std::int64_t> initial(static_cast<std::size_t>(s.units), 0);
  if (bias != nullptr && wideBias) {
    initial = tensorValues<std::int64_t>(*bias);
  } else if (bias != nullptr) {
    const std::vector<std::int32_t> bias32 = tensorValues<std::int32_t>(*bias);
    initial.assign(bias32.begin(), bias32.end());
  }
  if (weightsOffset == 0) {
    const std::vector<std::int64_t> sums = convFilterSums(weights, static_cast<int>(s.units));
    for (std::size_t unit = 0; unit < initial.size(); ++unit)
      initial[unit] += inputOffset * sums[unit];
  }
  Buffer w = fb.constant(weights, "weights");
  Buffer init;
  if (accType == ScalarType::Int64) {
    init = fb.constant("acc_init", ScalarType::Int64, initial);
  } else {
    std::vector<std::int32_t> init32;
    for (std::int64_t v : initial)
      init32.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
    init = fb.constant("acc_init", ScalarType::Int32, init32);
  }
  std::vector<std::int32_t> mult, shift;
  for (const auto& m : multipliers) {
    mult.push_back(m.multiplier);
    shift.push_back(m.shift);
  }
  Expr multiplier, shiftAmount;
  if (perChannel) {
    multiplier = load(fb.constant("multiplier", ScalarType::Int32, mult), refVar(u));
    shiftAmount = load(fb.constant("shift", ScalarType::Int32, shift), refVar(u));
  } else {
    multiplier = intImm(mult.empty() ? 0 : mult[0]);
    shiftAmount = intImm(shift.empty() ? 0 : shift[0]);
  }

  Buffer acc = fb.local("acc", accType, 1);
  Expr wv = cast(accType, load(w, refVar(u) * static_cast<int>(s.depth) + refVar(d)));
  Expr xv = cast(accType, xAt);
  if (weightsOffset != 0) {
    wv = wv + intImm(weightsOffset, accType);
    xv = xv + intImm(inputOffset, accType);
  }
  Expr requantized;
  if (reference::requantizesInt64Sum(input, bias)) {
    requantized = callIntrinsic("loupe.requantize_i64", ScalarType::Int32,
                                {load(acc, 0), multiplier, shiftAmount, range.min, range.max});
  } else {
    const int outputOffset = int16Input ? 0 : output.quantization.zeroPoint();
    requantized = callIntrinsic("loupe.requantize_i32", ScalarType::Int32,
                                {cast(ScalarType::Int32, load(acc, 0)), multiplier, shiftAmount,
                                 outputOffset, range.min, range.max});
  }
  Stmt body = allocate(
      acc, seq({store(acc, 0, load(init, refVar(u))),
                forLoop(d, 0, static_cast<int>(s.depth), store(acc, 0, load(acc, 0) + wv * xv)),
                store(out, outIndex, cast(out->type, requantized))}));
  return fb.finish(
      forLoop(b, 0, static_cast<int>(s.batches), forLoop(u, 0, static_cast<int>(s.units), body)));
}

}  // namespace loupe::lowering
