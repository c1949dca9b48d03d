// TRANSPOSE_CONV -> TIR. The reference kernel scatters: every input element
// adds its products to the outputs its window covers. The lowering gathers
// instead, so each output element is written once from one accumulator: for
// output position (oy, ox) the covering input rows are those iy with
// 0 <= oy + pad - iy * stride < kernel, a contiguous range computed once per
// row (and per column) as loop bounds, so no tap is tested inside the loops.
// The gather visits an output's contributions in the scatter's order (input
// row, column, channel ascending), which keeps float sums bit-exact; integer
// sums do not depend on the order.
//
// Every number comes from reference::planTransposeConv (padding, per-channel
// multipliers, offsets, clamp bounds) and the per-element requantisation is
// the shared helper the reference calls (loupe_requantize_acc_i32 for int8,
// loupe_requantize_acc_i64 for 16x8).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>

#include "lowering/lowering_rule.h"
#include "ops/transpose_conv_plan.h"

namespace loupe::lowering {

using namespace tir;

namespace {

constexpr std::size_t kFilterSlot = 1;
constexpr std::size_t kTransposeConvInputSlot = 2;
constexpr std::size_t kTransposeConvBiasSlot = 3;

struct TransposeConvDims {
  int batches = 0, inHeight = 0, inWidth = 0, inDepth = 0;
  int filterHeight = 0, filterWidth = 0;
  int outHeight = 0, outWidth = 0, outDepth = 0;
  int strideH = 1, strideW = 1, padH = 0, padW = 0;
};

// The input positions along one axis whose windows cover output position
// `o`: i with 0 <= o + pad - i * stride < kernel, clipped to [0, size), as
// [begin, end); end may be below begin (no input covers o).
struct CoveringRange {
  Expr begin, end;
};

CoveringRange coveringInputs(const Expr& o, int pad, int stride, int kernel, int size) {
  // First: ceil((o + pad - kernel + 1) / stride), taken from 0 when negative
  // so that C's truncating division rounds the right way.
  const Expr begin = (maxExpr(o + (pad - kernel + 1), 0) + (stride - 1)) / stride;
  // One past the last: floor((o + pad) / stride) + 1 (o + pad >= 0).
  const Expr end = minExpr((o + pad) / stride + 1, size);
  return {begin, end};
}

std::int64_t maxAbs(const std::vector<std::int64_t>& values) {
  std::int64_t m = 0;
  for (std::int64_t v : values) m = std::max(m, v < 0 ? -v : v);
  return m;
}

// A per-output-channel value: an immediate when every channel has the same
// (per-tensor quantisation, no bias), else a constant table.
Expr channelValue(FunctionBuilder& fb, const std::string& role,
                  const std::vector<std::int64_t>& values, ScalarType type, const Expr& oc) {
  if (std::adjacent_find(values.begin(), values.end(), std::not_equal_to<>()) == values.end()) {
    return intImm(values.empty() ? 0 : values.front(), type);
  }
  if (type == ScalarType::Int64) return load(fb.constant(role, type, values), oc);
  std::vector<std::int32_t> narrow(values.begin(), values.end());
  return load(fb.constant(role, type, narrow), oc);
}

// The bias as one int64 per output channel (0 without a bias).
std::vector<std::int64_t> biasValues(const ir::Tensor* bias, int channels) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(channels), 0);
  if (bias == nullptr) return values;
  if (bias->dtype == ir::DType::Int64) {
    const auto v = tensorValues<std::int64_t>(*bias);
    std::copy(v.begin(), v.end(), values.begin());
  } else if (bias->dtype == ir::DType::Int32) {
    const auto v = tensorValues<std::int32_t>(*bias);
    std::copy(v.begin(), v.end(), values.begin());
  } else {
    const auto v = tensorValues<std::int16_t>(*bias);
    std::copy(v.begin(), v.end(), values.begin());
  }
  return values;
}

}  // namespace

PrimFunc lowerTransposeConv(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  const auto& attrs = std::get<ir::TransposeConvAttrs>(op.attributes);
  const ir::Tensor& filter = *graph.input(op, kFilterSlot);
  const ir::Tensor& input = *graph.input(op, kTransposeConvInputSlot);
  const ir::Tensor* bias = graph.input(op, kTransposeConvBiasSlot);
  const ir::Tensor& output = graph.output(op, 0);
  if (!filter.isConstant) fail(op, "the weights must be constant to compile to C");
  if (bias != nullptr && !bias->isConstant) fail(op, "the bias must be constant to compile to C");
  const reference::TransposeConvPlan plan =
      reference::planTransposeConv(input, filter, output, attrs);
  TransposeConvDims d;
  d.batches = input.shape[0];
  d.inHeight = input.shape[1];
  d.inWidth = input.shape[2];
  d.inDepth = input.shape[3];
  d.filterHeight = filter.shape[1];
  d.filterWidth = filter.shape[2];
  d.outHeight = output.shape[1];
  d.outWidth = output.shape[2];
  d.outDepth = output.shape[3];
  d.strideH = attrs.strideH;
  d.strideW = attrs.strideW;
  d.padH = plan.padHeight;
  d.padW = plan.padWidth;

  FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.input(op.inputs[kTransposeConvInputSlot], "input");
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer weights = fb.constant(filter, "weights");

  Var b = loopVar("b"), oy = loopVar("oy"), ox = loopVar("ox"), oc = loopVar("oc");
  Var iy = loopVar("iy"), ix = loopVar("ix"), ic = loopVar("ic");
  Var iyBegin = loopVar("iy_begin"), iyCount = loopVar("iy_count");
  Var ixBegin = loopVar("ix_begin"), ixCount = loopVar("ix_count");
  const Expr inputValue =
      load(in, ((refVar(b) * d.inHeight + refVar(iy)) * d.inWidth + refVar(ix)) * d.inDepth +
                   refVar(ic));
  const Expr filterY = refVar(oy) + d.padH - refVar(iy) * d.strideH;
  const Expr filterX = refVar(ox) + d.padW - refVar(ix) * d.strideW;
  const Expr weight = load(
      weights,
      ((refVar(oc) * d.filterHeight + filterY) * d.filterWidth + filterX) * d.inDepth + refVar(ic));
  const Expr outIndex =
      ((refVar(b) * d.outHeight + refVar(oy)) * d.outWidth + refVar(ox)) * d.outDepth + refVar(oc);

  // The accumulator's type, starting value, one product and the stored value.
  ScalarType accType;
  Expr initial, product;
  std::function<Expr(const Expr&)> finish;
  if (input.dtype == ir::DType::Float32) {
    // From 0.0f in the scatter's order; the bias (when there is one) last,
    // then the clamp, as the reference does.
    accType = ScalarType::Float32;
    initial = floatImm(0.0);
    product = inputValue * weight;
    const Buffer biasTable = bias != nullptr ? fb.constant(*bias, "bias") : nullptr;
    finish = [&, biasTable](const Expr& acc) {
      const Expr total = biasTable ? acc + load(biasTable, refVar(oc)) : acc;
      return callIntrinsic(
          "loupe.clamp_f32", ScalarType::Float32,
          {total, floatImm(plan.floatActivationMin), floatImm(plan.floatActivationMax)});
    };
  } else {
    const bool is16x8 = input.dtype == ir::DType::Int16;
    const std::vector<std::int64_t> biases = biasValues(bias, d.outDepth);
    // The reference sums int8 products in int32 (wrapping) and 16x8 products
    // in int64. A narrower accumulator gives the same result when no partial
    // sum can leave its range: at most ceil(K / stride) taps per axis times
    // the input depth products, each below 2^15 (int8 with its offset) or
    // 2^22 (int16 x int8).
    const std::int64_t taps = std::int64_t{(d.filterHeight + d.strideH - 1) / d.strideH} *
                              ((d.filterWidth + d.strideW - 1) / d.strideW) * d.inDepth;
    const std::int64_t productBound = is16x8 ? (std::int64_t{1} << 22) : (std::int64_t{1} << 15);
    const bool fitsInt32 =
        maxAbs(biases) + taps * productBound <= std::numeric_limits<std::int32_t>::max();
    accType = fitsInt32 ? ScalarType::Int32 : ScalarType::Int64;
    initial = channelValue(fb, "bias", biases, accType, refVar(oc));
    Expr x = cast(accType, inputValue);
    if (plan.inputOffset != 0) x = x + intImm(plan.inputOffset, accType);
    product = cast(accType, weight) * x;

    const std::vector<std::int64_t> multipliers(plan.outputMultipliers.begin(),
                                                plan.outputMultipliers.end());
    const std::vector<std::int64_t> shifts(plan.outputShifts.begin(), plan.outputShifts.end());
    const Expr multiplier =
        channelValue(fb, "multiplier", multipliers, ScalarType::Int32, refVar(oc));
    const Expr shift = channelValue(fb, "shift", shifts, ScalarType::Int32, refVar(oc));
    const ScalarType outType = fromDType(output.dtype);
    finish = [&, multiplier, shift, is16x8, outType](const Expr& acc) {
      if (is16x8) {
        return cast(outType,
                    callIntrinsic("loupe.requantize_i64", ScalarType::Int32,
                                  {cast(ScalarType::Int64, acc), multiplier, shift,
                                   intImm(plan.activationMin), intImm(plan.activationMax)}));
      }
      // An int64 sum keeps its low 32 bits: the reference's wrapped int32 sum.
      return cast(outType, callIntrinsic("loupe.requantize_i32", ScalarType::Int32,
                                         {cast(ScalarType::Int32, acc), multiplier, shift,
                                          intImm(plan.outputOffset), intImm(plan.activationMin),
                                          intImm(plan.activationMax)}));
    };
  }

  const Buffer acc = fb.local("acc", accType, 1);
  const Stmt accumulate =
      forLoop(iy, refVar(iyBegin), refVar(iyCount),
              forLoop(ix, refVar(ixBegin), refVar(ixCount),
                      forLoop(ic, 0, d.inDepth, store(acc, 0, load(acc, 0) + product))));
  const Stmt channel = allocate(
      acc, seq({store(acc, 0, initial), accumulate, store(out, outIndex, finish(load(acc, 0)))}));
  const CoveringRange rows =
      coveringInputs(refVar(oy), d.padH, d.strideH, d.filterHeight, d.inHeight);
  const CoveringRange cols =
      coveringInputs(refVar(ox), d.padW, d.strideW, d.filterWidth, d.inWidth);
  const Stmt column =
      let(ixBegin, cols.begin,
          let(ixCount, cols.end - refVar(ixBegin), forLoop(oc, 0, d.outDepth, channel)));
  const Stmt row =
      let(iyBegin, rows.begin,
          let(iyCount, rows.end - refVar(iyBegin), forLoop(ox, 0, d.outWidth, column)));
  return fb.finish(forLoop(b, 0, d.batches, forLoop(oy, 0, d.outHeight, row)));
}

}  // namespace loupe::lowering
