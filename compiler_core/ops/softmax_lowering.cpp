// SOFTMAX -> TIR over the last dimension, one row at a time: the row maximum,
// the sum of exponentials of the differences to it, then every output from
// its exponential and the row's reciprocal of the sum. Each step calls the
// scalar helper of loupe/fixed_point_math.h that the reference kernel calls,
// so both compute every element alike:
//   float32        expf of (x - max) * beta, sum, divide;
//   int8 input     gemmlowp exp in Q0.31, sum in Q12.19, one reciprocal and
//                  shift per row (int8 or int16 output); for large tensors the
//                  256 possible exponentials are a compile-time table instead;
//   int16          the reference's interpolated exp and 1/(1+x) tables as
//                  constants.
#include <cfloat>
#include <cstdint>
#include <functional>
#include <vector>

#include "loupe/fixed_point_math.h"
#include "lowering/lowering_rule.h"
#include "reference/activation_params.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Above this many elements, int8 SOFTMAX reads its exponentials from a
// 256-entry table (1 KiB) instead of evaluating exp twice per element.
constexpr std::int64_t kExpTableMinElements = 256;

// The row loop and the index of element `c` of the current row.
struct RowContext {
  Var row = loopVar("r");
  int depth = 0;
  Expr at(const Var& c) const { return refVar(row) * depth + refVar(c); }
};

// row_max[0] = the largest element of the row, then `rest`.
Stmt withRowMax(const Buffer& in, const Buffer& rowMax, const RowContext& r, Expr lowest,
                bool isFloat, Stmt rest) {
  Var c = loopVar("c");
  const Expr x = cast(rowMax->type, load(in, r.at(c)));
  const Expr current = load(rowMax, 0);
  // std::max(current, x), NaN rules included, for float.
  const Expr larger = isFloat ? select(current < x, x, current) : maxExpr(current, x);
  return allocate(rowMax, seq({store(rowMax, 0, std::move(lowest)),
                               forLoop(c, 0, r.depth, store(rowMax, 0, larger)), rest}));
}

Stmt softmaxFloat(FunctionBuilder& fb, const Buffer& in, const Buffer& out, const RowContext& r,
                  float beta) {
  Buffer rowMax = fb.local("row_max", ScalarType::Float32, 1);
  Buffer sum = fb.local("sum", ScalarType::Float32, 1);
  Var c = loopVar("c"), c2 = loopVar("c");
  const Expr e = callIntrinsic("loupe.expf", ScalarType::Float32,
                               {(load(in, r.at(c)) - load(rowMax, 0)) * floatImm(beta)});
  Stmt rest = allocate(
      sum,
      seq({store(sum, 0, floatImm(0.0)),
           forLoop(c, 0, r.depth,
                   seq({store(out, r.at(c), e), store(sum, 0, load(sum, 0) + load(out, r.at(c)))})),
           forLoop(c2, 0, r.depth, store(out, r.at(c2), load(out, r.at(c2)) / load(sum, 0)))}));
  return withRowMax(in, rowMax, r, floatImm(-FLT_MAX), true, rest);
}

Stmt softmaxInt8(FunctionBuilder& fb, const Buffer& in, const Buffer& out, const RowContext& r,
                 const reference::SoftmaxInt8Params& params, bool useTable) {
  const bool int16Output = out->type == ScalarType::Int16;
  const int outputBits = int16Output ? 16 : 8;
  const int outputMin = int16Output ? INT16_MIN : INT8_MIN;
  const int outputMax = int16Output ? INT16_MAX : INT8_MAX;
  Buffer rowMax = fb.local("row_max", ScalarType::Int32, 1);
  Buffer sum = fb.local("sum", ScalarType::Int32, 1);
  Buffer table;
  if (useTable) {
    // exp of every difference an int8 row can hold, by -difference.
    std::vector<std::int32_t> exps(256);
    for (int i = 0; i < 256; ++i) {
      exps[static_cast<std::size_t>(i)] =
          loupe_softmax_exp_q31(-i, params.diffMin, params.inputMultiplier, params.inputLeftShift);
    }
    table = fb.constant("exp_table", ScalarType::Int32, exps);
  }
  auto expOf = [&](const Var& c) {
    const Expr x = cast(ScalarType::Int32, load(in, r.at(c)));
    if (useTable) return load(table, load(rowMax, 0) - x);
    return callIntrinsic(
        "loupe.softmax_exp_q31", ScalarType::Int32,
        {x - load(rowMax, 0), params.diffMin, params.inputMultiplier, params.inputLeftShift});
  };
  Var c = loopVar("c"), c2 = loopVar("c");
  Var reciprocal = makeVar("reciprocal"), exponent = makeVar("exponent");
  const Expr term = callIntrinsic("loupe.softmax_sum_term", ScalarType::Int32, {expOf(c)});
  const Expr output =
      callIntrinsic("loupe.softmax_output", ScalarType::Int32,
                    {expOf(c2), refVar(reciprocal), refVar(exponent), outputMin, outputMax});
  Stmt rest = allocate(
      sum, seq({store(sum, 0, 0),
                forLoop(c, 0, r.depth,
                        store(sum, 0,
                              callIntrinsic("loupe.wrapping_add_i32", ScalarType::Int32,
                                            {load(sum, 0), term}))),
                let(reciprocal,
                    callIntrinsic("loupe.softmax_reciprocal", ScalarType::Int32, {load(sum, 0)}),
                    let(exponent,
                        callIntrinsic("loupe.softmax_reciprocal_exponent", ScalarType::Int32,
                                      {load(sum, 0), outputBits}),
                        forLoop(c2, 0, r.depth, store(out, r.at(c2), cast(out->type, output)))))}));
  return withRowMax(in, rowMax, r, INT8_MIN, false, rest);
}

// lut's interpolated value at `value` (an int32 holding an int16), as
// loupe_lut_lookup_int16 reads it.
Expr lutLookup(const Buffer& lut, const Expr& value) {
  const Expr index = (value >> 7) + 256;
  return callIntrinsic("loupe.lut_interpolate_int16", ScalarType::Int16,
                       {cast(ScalarType::Int16, value), load(lut, index), load(lut, index + 1)});
}

Stmt softmaxInt16(FunctionBuilder& fb, const Buffer& in, const Buffer& out, const RowContext& r,
                  const reference::SoftmaxInt16Params& params) {
  Buffer expLut =
      fb.constant("exp_lut", ScalarType::Int16,
                  std::vector<std::int16_t>(params.expLut.begin(), params.expLut.end()));
  Buffer reciprocalLut = fb.constant("one_over_one_plus_x_lut", ScalarType::Int16,
                                     std::vector<std::int16_t>(params.oneOverOnePlusXLut.begin(),
                                                               params.oneOverOnePlusXLut.end()));
  Buffer rowMax = fb.local("row_max", ScalarType::Int32, 1);
  Buffer sum = fb.local("sum", ScalarType::Int32, 1);
  // let exp_input = ... in body(exp of element c)
  auto withExp = [&](const Var& c, const std::function<Stmt(const Expr&)>& body) {
    Var expInput = makeVar("exp_input");
    const Expr diff = cast(ScalarType::Int32, load(in, r.at(c))) - load(rowMax, 0);
    return let(expInput,
               callIntrinsic("loupe.softmax_int16_exp_input", ScalarType::Int32,
                             {diff, params.inputMultiplier, params.inputLeftShift}),
               body(cast(ScalarType::Int32, lutLookup(expLut, refVar(expInput)))));
  };
  Var c = loopVar("c"), c2 = loopVar("c");
  Var reciprocalInput = makeVar("reciprocal_input"), reciprocal = makeVar("reciprocal");
  Var rightShift = makeVar("right_shift");
  Stmt outputs = forLoop(
      c2, 0, r.depth, withExp(c2, [&](const Expr& e) {
        return store(
            out, r.at(c2),
            cast(ScalarType::Int16, callIntrinsic("loupe.softmax_int16_output", ScalarType::Int32,
                                                  {e, refVar(reciprocal), refVar(rightShift)})));
      }));
  Stmt rest = allocate(
      sum, seq({store(sum, 0, 0),
                forLoop(c, 0, r.depth,
                        withExp(c, [&](const Expr& e) { return store(sum, 0, load(sum, 0) + e); })),
                let(reciprocalInput,
                    callIntrinsic("loupe.softmax_int16_reciprocal_input", ScalarType::Int32,
                                  {load(sum, 0)}),
                    let(reciprocal,
                        cast(ScalarType::Int32, lutLookup(reciprocalLut, refVar(reciprocalInput))),
                        let(rightShift,
                            callIntrinsic("loupe.softmax_int16_right_shift", ScalarType::Int32,
                                          {load(sum, 0)}),
                            outputs)))}));
  return withRowMax(in, rowMax, r, INT16_MIN, false, rest);
}

}  // namespace

PrimFunc lowerSoftmax(const ir::Graph& graph, const ir::Operator& op,
                      const std::string& functionName) {
  const float beta = std::get<ir::SoftmaxAttrs>(op.attributes).beta;
  const ir::Tensor& input = *graph.input(op, 0);
  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.input(op.inputs[0], "input");
  Buffer out = fb.param(op.outputs[0], "output", true);
  RowContext r;
  r.depth = static_cast<int>(input.shape.back());
  const int rows = r.depth == 0 ? 0 : static_cast<int>(input.elementCount() / r.depth);
  Stmt row;
  if (input.dtype == ir::DType::Float32) {
    row = softmaxFloat(fb, in, out, r, beta);
  } else if (input.dtype == ir::DType::Int16) {
    row = softmaxInt16(fb, in, out, r,
                       reference::softmaxInt16Params(input.quantization.scale(), beta));
  } else {
    row =
        softmaxInt8(fb, in, out, r, reference::softmaxInt8Params(input.quantization.scale(), beta),
                    input.elementCount() >= kExpTableMinElements);
  }
  return fb.finish(forLoop(r.row, 0, rows, row));
}

}  // namespace loupe::lowering
