// LOGISTIC and TANH -> TIR, one flat loop over the elements:
//   float32  loupe_logistic_f32 / loupe_tanh_f32 per element (loupe_libm.h's expf, tanhf);
//   int16    TFLM's interpolated sigmoid table per element
//            (loupe_logistic_int16_lut / loupe_tanh_int16_lut);
//   int8     a 256-entry table of loupe_logistic_int8 / loupe_tanh_int8
//            (gemmlowp's fixed-point functions) computed at compile time.
#include "loupe/elementwise_unary.h"
#include "lowering/elementwise_unary.h"
#include "lowering/lowering_rule.h"
#include "reference/activation_params.h"

namespace loupe::lowering {

namespace {

UnaryElementFunction sigmoidFamily(const ir::Operator& op, const ir::Tensor& input, bool tanh) {
  const float scale = input.quantization.scale();
  switch (input.dtype) {
    case ir::DType::Float32:
      return tanh ? helperCall("loupe.tanh_f32", loupe_tanh_f32)
                  : helperCall("loupe.logistic_f32", loupe_logistic_f32);
    case ir::DType::Int16: {
      const reference::SigmoidInt16Params p =
          tanh ? reference::tanhInt16Params(scale) : reference::logisticInt16Params(scale);
      return helperCall(tanh ? "loupe.tanh_int16_lut" : "loupe.logistic_int16_lut",
                        tanh ? loupe_tanh_int16_lut : loupe_logistic_int16_lut, p.inputMultiplier,
                        p.inputLeftShift);
    }
    case ir::DType::Int8: {
      const reference::SigmoidInt8Params p =
          reference::sigmoidInt8Params(scale, input.quantization.zeroPoint());
      return compileTimeCall(tanh ? loupe_tanh_int8 : loupe_logistic_int8, p.inputZeroPoint,
                             p.inputRangeRadius, p.inputMultiplier, p.inputLeftShift);
    }
    default:
      failTensorType(op, "input", input);
  }
}

}  // namespace

tir::PrimFunc lowerLogistic(const ir::Graph& graph, const ir::Operator& op,
                            const std::string& functionName) {
  return lowerElementwiseUnary(graph, op, functionName,
                               sigmoidFamily(op, *graph.input(op, 0), /*tanh=*/false));
}

tir::PrimFunc lowerTanh(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  return lowerElementwiseUnary(graph, op, functionName,
                               sigmoidFamily(op, *graph.input(op, 0), /*tanh=*/true));
}

}  // namespace loupe::lowering
