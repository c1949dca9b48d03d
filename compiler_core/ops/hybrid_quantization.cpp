#include "ops/hybrid_quantization.h"

#include <algorithm>

#include "loupe/hybrid_quantize.h"
#include "ops/shape_rule.h"

namespace loupe::ops::hybrid {

RowQuantization quantizeRow(const float* row, std::int64_t length, bool asymmetric,
                            std::int8_t* out) {
  RowQuantization q;
  if (length <= 0) return q;
  const auto [lo, hi] = std::minmax_element(row, row + length);
  if (asymmetric) {
    q.scale = loupe_hybrid_asymmetric_scale(*lo, *hi);
    q.offset = loupe_hybrid_asymmetric_offset(*lo, *hi);
    const float inverse = 1.0f / q.scale;
    for (std::int64_t i = 0; i < length; ++i) {
      out[i] =
          static_cast<std::int8_t>(loupe_hybrid_quantize_asymmetric(row[i], q.offset, inverse));
    }
  } else {
    q.scale = loupe_hybrid_symmetric_scale(*lo, *hi);
    const float inverse = loupe_hybrid_symmetric_inverse(*lo, *hi);
    for (std::int64_t i = 0; i < length; ++i) {
      out[i] = static_cast<std::int8_t>(loupe_hybrid_quantize_symmetric(row[i], inverse));
    }
  }
  return q;
}

tir::Stmt quantizeRow(const tir::Buffer& input, const tir::Expr& start, std::int64_t length,
                      const tir::Buffer& quantized, bool asymmetric, const tir::Buffer& lo,
                      const tir::Buffer& hi, const tir::Var& scale, const tir::Var& offset,
                      tir::Stmt then, const tir::Expr& quantizedStart) {
  using namespace tir;
  const Var i = lowering::loopVar("i");
  const Var inverse = makeVar("inverse", ScalarType::Float32);
  const Expr x = load(input, start + refVar(i));
  auto call = [](const char* name, ScalarType type, std::vector<Expr> args) {
    return callIntrinsic(name, type, std::move(args));
  };
  // std::minmax_element: the first least and the last greatest value.
  Stmt minMax = seq({store(lo, 0, load(input, start)), store(hi, 0, load(input, start)),
                     forLoop(i, 1, length - 1,
                             seq({ifThenElse(x < load(lo, 0), store(lo, 0, x)),
                                  ifThenElse(logicalNot(x < load(hi, 0)), store(hi, 0, x))}))});
  const Expr rowLo = load(lo, 0), rowHi = load(hi, 0);
  const Expr value =
      asymmetric ? call("loupe.hybrid_quantize_asymmetric", ScalarType::Int32,
                        {x, refVar(offset), refVar(inverse)})
                 : call("loupe.hybrid_quantize_symmetric", ScalarType::Int32, {x, refVar(inverse)});
  Stmt quantize = forLoop(
      i, 0, length, store(quantized, quantizedStart + refVar(i), cast(ScalarType::Int8, value)));
  Stmt body = seq({quantize, std::move(then)});
  if (asymmetric) {
    body =
        let(scale, call("loupe.hybrid_asymmetric_scale", ScalarType::Float32, {rowLo, rowHi}),
            let(offset, call("loupe.hybrid_asymmetric_offset", ScalarType::Int32, {rowLo, rowHi}),
                let(inverse, floatImm(1.0) / refVar(scale), body)));
  } else {
    body =
        let(scale, call("loupe.hybrid_symmetric_scale", ScalarType::Float32, {rowLo, rowHi}),
            let(inverse,
                call("loupe.hybrid_symmetric_inverse", ScalarType::Float32, {rowLo, rowHi}), body));
  }
  return seq({minMax, body});
}

tir::Stmt findNonZero(const tir::Buffer& input, const tir::Expr& start, std::int64_t count,
                      const tir::Buffer& flag, int flagIndex) {
  using namespace tir;
  const Var i = lowering::loopVar("i");
  return seq({store(flag, flagIndex, 0),
              forLoop(i, 0, count,
                      ifThenElse(ne(load(input, start + refVar(i)), floatImm(0.0)),
                                 store(flag, flagIndex, 1)))});
}

std::optional<std::string> checkWeights(const ir::Tensor& weights) {
  if (weights.dtype != ir::DType::Int8) {
    return "hybrid weights must be int8, found " + tensorText(weights);
  }
  if (weights.quantization.scales.empty()) {
    return "hybrid weights need their quantisation scale, found " + tensorText(weights);
  }
  for (std::int64_t zero : weights.quantization.zeroPoints) {
    if (zero != 0) return "hybrid weights must have zero point 0, found " + tensorText(weights);
  }
  return std::nullopt;
}

bool hasChannelScales(const ir::Tensor& weights) {
  const std::vector<float>& scales = weights.quantization.scales;
  return std::any_of(scales.begin(), scales.end(), [&](float s) { return s != scales[0]; });
}

std::vector<std::int32_t> rowSums(const std::int8_t* values, std::int64_t rows,
                                  std::int64_t depth) {
  std::vector<std::int32_t> sums(static_cast<std::size_t>(std::max<std::int64_t>(rows, 0)), 0);
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t d = 0; d < depth; ++d) sums[r] += values[r * depth + d];
  }
  return sums;
}

std::optional<std::string> checkActivation(ir::Activation activation, const char* opName) {
  switch (activation) {
    case ir::Activation::None:
    case ir::Activation::Relu:
    case ir::Activation::Relu6:
    case ir::Activation::ReluN1To1:
      return std::nullopt;
    default:
      return "the fused activation " + std::string(ir::activationName(activation)) +
             " is not supported on a hybrid " + opName + " (RELU, RELU_N1_TO_1 and RELU6 are)";
  }
}

float activate(float x, ir::Activation activation) {
  switch (activation) {
    case ir::Activation::Relu:
      return std::max(0.0f, x);
    case ir::Activation::Relu6:
      return std::max(0.0f, std::min(x, 6.0f));
    case ir::Activation::ReluN1To1:
      return std::max(-1.0f, std::min(x, 1.0f));
    default:
      return x;
  }
}

tir::Expr activate(const tir::Expr& x, ir::Activation activation) {
  auto maxOf = [](tir::Expr a, tir::Expr b) { return tir::select(a < b, b, a); };
  auto minOf = [](tir::Expr a, tir::Expr b) { return tir::select(b < a, b, a); };
  switch (activation) {
    case ir::Activation::Relu:
      return maxOf(tir::floatImm(0.0), x);
    case ir::Activation::Relu6:
      return maxOf(tir::floatImm(0.0), minOf(x, tir::floatImm(6.0)));
    case ir::Activation::ReluN1To1:
      return maxOf(tir::floatImm(-1.0), minOf(x, tir::floatImm(1.0)));
    default:
      return x;
  }
}

}  // namespace loupe::ops::hybrid
