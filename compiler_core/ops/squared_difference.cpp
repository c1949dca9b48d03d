// SQUARED_DIFFERENCE: (input1 - input2)^2 element-wise, with NumPy
// broadcasting, as TFLite Micro computes it:
//   float32  d * d with d = a - b;
//   int32    the same in two's complement (TFLM's int32 overflow wraps on
//            the hardware it runs on; Loupe wraps by definition);
//   int8     both inputs' offsets (a - za, b - zb) shifted left by 7, each
//            rescaled by its scale / (2 * the larger input scale) (a Q0.31
//            multiplier below one), the difference squared and requantised
//            by (2 * larger scale)^2 / (2^14 * output scale), plus the output
//            zero point, clamped to int8;
//   int16    the same with no left shift; TFLM requires zero points of 0.
// The operator has no fused activation.
#include <algorithm>
#include <cstdint>

#include "loupe/fixed_point.h"
#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/elementwise_binary_common.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

std::optional<InferredOutput> broadcastShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op);
}

// TFLM's per-operator parameters of the quantised kernel.
struct QuantizedSquaredDifferenceParams {
  std::int32_t input1ZeroPoint = 0, input2ZeroPoint = 0, outputZeroPoint = 0;
  int leftShift = 0;
  reference::QuantizedMultiplier input1, input2, output;
  std::int32_t min = 0, max = 0;
};

QuantizedSquaredDifferenceParams quantizedParams(const ir::Tensor& input1, const ir::Tensor& input2,
                                                 const ir::Tensor& output) {
  QuantizedSquaredDifferenceParams p;
  const bool int8 = output.dtype == ir::DType::Int8;
  p.input1ZeroPoint = static_cast<std::int32_t>(input1.quantization.zeroPoint());
  p.input2ZeroPoint = static_cast<std::int32_t>(input2.quantization.zeroPoint());
  p.outputZeroPoint = static_cast<std::int32_t>(output.quantization.zeroPoint());
  // 7 keeps the largest squared int8 difference, (255 * 2^7)^2, within int32.
  p.leftShift = int8 ? 7 : 0;
  const float scale1 = input1.quantization.scale(), scale2 = input2.quantization.scale();
  const double twiceMaxScale = 2.0 * static_cast<double>(std::max(scale1, scale2));
  p.input1 = reference::quantizeMultiplier(static_cast<double>(scale1) / twiceMaxScale);
  p.input2 = reference::quantizeMultiplier(static_cast<double>(scale2) / twiceMaxScale);
  // TFLM multiplies the output scale by 2^(2 * leftShift) in float.
  const float shiftedOutputScale =
      static_cast<float>(1 << (2 * p.leftShift)) * output.quantization.scale();
  p.output = reference::quantizeMultiplier(twiceMaxScale * twiceMaxScale /
                                           static_cast<double>(shiftedOutputScale));
  p.min = int8 ? -128 : -32768;
  p.max = int8 ? 127 : 32767;
  return p;
}

// One quantised output element (before the cast).
std::int32_t quantizedSquaredDifference(std::int32_t a, std::int32_t b,
                                        const QuantizedSquaredDifferenceParams& p) {
  const std::int32_t scaled1 = loupe_multiply_by_quantized_multiplier_smaller_than_one(
      (a - p.input1ZeroPoint) * (1 << p.leftShift), p.input1.multiplier, p.input1.shift);
  const std::int32_t scaled2 = loupe_multiply_by_quantized_multiplier_smaller_than_one(
      (b - p.input2ZeroPoint) * (1 << p.leftShift), p.input2.multiplier, p.input2.shift);
  const std::int32_t difference = scaled1 - scaled2;
  const std::int32_t raw = loupe_multiply_by_quantized_multiplier(
      difference * difference, p.output.multiplier, p.output.shift);
  return loupe_clamp_i32(raw + p.outputZeroPoint, p.min, p.max);
}

std::int32_t wrappedSquaredDifference(std::int32_t a, std::int32_t b) {
  const auto difference = static_cast<std::int32_t>(static_cast<std::int64_t>(a) - b);
  return static_cast<std::int32_t>(static_cast<std::int64_t>(difference) * difference);
}

std::optional<std::string> checkSquaredDifference(const ir::Graph& graph, const ir::Operator& op) {
  if (auto problem = reference::checkBinaryOperands(
          graph, op, {ir::DType::Float32, ir::DType::Int32, ir::DType::Int8, ir::DType::Int16})) {
    return problem;
  }
  const ir::Tensor& input1 = *graph.input(op, 0);
  const ir::Tensor& input2 = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  if (input1.dtype == ir::DType::Int8 || input1.dtype == ir::DType::Int16) {
    for (const auto& [role, t] :
         {std::pair{"input1", &input1}, {"input2", &input2}, {"output", &output}}) {
      if (auto problem = reference::checkPerTensorQuantization(role, *t)) return problem;
      const std::int64_t zeroPoint = t->quantization.zeroPoint();
      if (input1.dtype == ir::DType::Int8 && (zeroPoint < -128 || zeroPoint > 127)) {
        return reference::describeTensor(role, *t) + " has zero point " +
               std::to_string(zeroPoint) + " outside int8";
      }
      if (input1.dtype == ir::DType::Int16) {
        if (auto problem = reference::checkZeroPoint(
                role, *t, 0, "TFLite Micro's int16 SQUARED_DIFFERENCE needs zero points of 0")) {
          return problem;
        }
      }
    }
  }
  return std::nullopt;
}

void evalSquaredDifference(const ir::Graph& graph, const ir::Operator& op,
                           reference::TensorStore& store) {
  const ir::Tensor& input1 = *graph.input(op, 0);
  switch (input1.dtype) {
    case ir::DType::Float32:
      reference::evalBinaryBroadcast<float>(graph, op, store, [](float a, float b) {
        const float difference = a - b;
        return difference * difference;
      });
      break;
    case ir::DType::Int32:
      reference::evalBinaryBroadcast<std::int32_t>(graph, op, store, wrappedSquaredDifference);
      break;
    case ir::DType::Int8: {
      const auto p = quantizedParams(input1, *graph.input(op, 1), graph.output(op, 0));
      reference::evalBinaryBroadcast<std::int8_t>(
          graph, op, store, [&](std::int8_t a, std::int8_t b) {
            return static_cast<std::int8_t>(quantizedSquaredDifference(a, b, p));
          });
      break;
    }
    default: {
      const auto p = quantizedParams(input1, *graph.input(op, 1), graph.output(op, 0));
      reference::evalBinaryBroadcast<std::int16_t>(
          graph, op, store, [&](std::int16_t a, std::int16_t b) {
            return static_cast<std::int16_t>(quantizedSquaredDifference(a, b, p));
          });
      break;
    }
  }
}

using tir::Expr;

// (x - y)^2 of one element pair; x and y are int32 or float32 expressions.
// Lets bind the operands' own terms first, so a broadcast operand's term is
// hoisted out of the loops it does not change in.
tir::Stmt squaredDifferenceElement(const ir::Graph& graph, const ir::Operator& op,
                                   const tir::Buffer& out, const Expr& at, const Expr& a,
                                   const Expr& b) {
  const ir::Tensor& input1 = *graph.input(op, 0);
  constexpr auto kInt32 = tir::ScalarType::Int32, kInt64 = tir::ScalarType::Int64;
  if (input1.dtype == ir::DType::Float32) {
    const tir::Var difference = tir::makeVar("difference", tir::ScalarType::Float32);
    const Expr d = tir::refVar(difference);
    return tir::let(difference, a - b, tir::store(out, at, d * d));
  }
  if (input1.dtype == ir::DType::Int32) {
    // Two's complement: the differences and products in 64 bits, wrapped back.
    const tir::Var difference = tir::makeVar("difference");
    const Expr d = tir::cast(kInt64, tir::refVar(difference));
    return tir::let(difference, tir::cast(kInt32, tir::cast(kInt64, a) - tir::cast(kInt64, b)),
                    tir::store(out, at, tir::cast(kInt32, d * d)));
  }
  const auto p = quantizedParams(input1, *graph.input(op, 1), graph.output(op, 0));
  auto scaledTerm = [&](const Expr& q, std::int32_t zeroPoint,
                        const reference::QuantizedMultiplier& m) {
    return tir::callIntrinsic("loupe.multiply_by_quantized_multiplier_smaller_than_one", kInt32,
                              {(tir::cast(kInt32, q) - zeroPoint) * (1 << p.leftShift),
                               tir::intImm(m.multiplier), tir::intImm(m.shift)});
  };
  const tir::Var term1 = tir::makeVar("term1"), term2 = tir::makeVar("term2"),
                 difference = tir::makeVar("difference");
  const Expr d = tir::refVar(difference);
  const Expr requantised =
      tir::callIntrinsic("loupe.multiply_by_quantized_multiplier", kInt32,
                         {d * d, tir::intImm(p.output.multiplier), tir::intImm(p.output.shift)});
  const Expr clamped =
      tir::callIntrinsic("loupe.clamp_i32", kInt32,
                         {requantised + p.outputZeroPoint, tir::intImm(p.min), tir::intImm(p.max)});
  return tir::let(term1, scaledTerm(a, p.input1ZeroPoint, p.input1),
                  tir::let(term2, scaledTerm(b, p.input2ZeroPoint, p.input2),
                           tir::let(difference, tir::refVar(term1) - tir::refVar(term2),
                                    tir::store(out, at, tir::cast(out->type, clamped)))));
}

tir::PrimFunc lowerSquaredDifference(const ir::Graph& graph, const ir::Operator& op,
                                     const std::string& functionName) {
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer input1 = fb.input(op.inputs[0], "input1");
  const tir::Buffer input2 = fb.input(op.inputs[1], "input2");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  return fb.finish(
      broadcastLoops(graph.output(op, 0).shape, graph.input(op, 0)->shape,
                     graph.input(op, 1)->shape, [&](const Expr& o, const Expr& i1, const Expr& i2) {
                       return squaredDifferenceElement(graph, op, out, o, tir::load(input1, i1),
                                                       tir::load(input2, i2));
                     }));
}

const reference::Kernel kSquaredDifferenceKernel{ir::OpType::SquaredDifference,
                                                 checkSquaredDifference, evalSquaredDifference};

}  // namespace

extern const OperatorDefinition kSquaredDifferenceDefinition{
    .type = ir::OpType::SquaredDifference,
    .dtypes = "float32, int32, int8, int16 (zero points 0) (same type for inputs and output)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::SquaredDifferenceOptions>(),
               .maxVersion = 2},
    .shape = broadcastShape,
    .kernel = &kSquaredDifferenceKernel,
    .lower = lowerSquaredDifference,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
