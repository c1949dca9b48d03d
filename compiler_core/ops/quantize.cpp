// QUANTIZE (float to integer, or requantisation between integer types) and
// DEQUANTIZE (integer to float).
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kQuantizeKernel;
extern const Kernel kDequantizeKernel;
}  // namespace loupe::reference

namespace loupe::ops {

namespace {

// The output type is the model's choice.
std::optional<InferredOutput> quantizeShape(const ir::Graph& graph, const ir::Operator& op) {
  return sameShapeAsInput(graph, op, {});
}

std::optional<InferredOutput> dequantizeShape(const ir::Graph& graph, const ir::Operator& op) {
  return sameShapeAsInput(graph, op, {ir::DType::Float32});
}

}  // namespace

extern const OperatorDefinition kQuantizeDefinition{
    .type = ir::OpType::Quantize,
    .dtypes =
        "float32->int8/16; int8->int8/uint8/int16/int32; uint8->int8; int16->int8/16/32; "
        "int32->int8/16",
    .import = {.optionsType = optionsTypeOf<tflite::QuantizeOptions>(), .maxVersion = 3},
    .shape = quantizeShape,
    .kernel = &reference::kQuantizeKernel,
    .lower = lowering::lowerQuantize,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kDequantizeDefinition{
    .type = ir::OpType::Dequantize,
    .dtypes = "int8, int16, uint8 -> float32",
    .import = {.optionsType = optionsTypeOf<tflite::DequantizeOptions>(), .maxVersion = 6},
    .shape = dequantizeShape,
    .kernel = &reference::kDequantizeKernel,
    .lower = lowering::lowerDequantize,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
