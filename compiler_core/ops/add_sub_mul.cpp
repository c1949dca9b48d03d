// ADD, SUB and MUL: element-wise arithmetic with broadcasting and a fused
// activation.
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kAddKernel;
extern const Kernel kSubKernel;
extern const Kernel kMulKernel;
}  // namespace loupe::reference

namespace loupe::ops {

namespace {

ir::Attributes readAddOptions(const tflite::Operator& op, const std::string& where) {
  ir::ElementwiseAttrs a;
  if (const auto* o = optionsAs<tflite::AddOptions>(op)) {
    a.activation = readActivation(o->fused_activation_function(), where);
    a.potScaleInt16 = o->pot_scale_int16();
  }
  return a;
}

ir::Attributes readSubOptions(const tflite::Operator& op, const std::string& where) {
  ir::ElementwiseAttrs a;
  if (const auto* o = optionsAs<tflite::SubOptions>(op)) {
    a.activation = readActivation(o->fused_activation_function(), where);
    a.potScaleInt16 = o->pot_scale_int16();
  }
  return a;
}

ir::Attributes readMulOptions(const tflite::Operator& op, const std::string& where) {
  ir::ElementwiseAttrs a;
  if (const auto* o = optionsAs<tflite::MulOptions>(op)) {
    a.activation = readActivation(o->fused_activation_function(), where);
  }
  return a;
}

std::optional<InferredOutput> broadcastShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op);
}

}  // namespace

extern const OperatorDefinition kAddDefinition{
    .type = ir::OpType::Add,
    .dtypes =
        "float32, int8, int16, int32 (same type for inputs and output; int32 inputs must be "
        "unquantised)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::AddOptions>(),
               .maxVersion = 5,
               .readOptions = readAddOptions},
    .shape = broadcastShape,
    .kernel = &reference::kAddKernel,
    .lower = lowering::lowerAdd,
    .lowerSimd = lowering::lowerAddSimd,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kSubDefinition{
    .type = ir::OpType::Sub,
    .dtypes =
        "float32, int8, int16, int32 (same type for inputs and output; int32 tensors must be "
        "unquantised)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::SubOptions>(),
               .maxVersion = 5,
               .readOptions = readSubOptions},
    .shape = broadcastShape,
    .kernel = &reference::kSubKernel,
    .lower = lowering::lowerSub,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kMulDefinition{
    .type = ir::OpType::Mul,
    .dtypes = "float32, int8, int16 (zero points 0), int32 (same type for inputs and output)",
    .import = {.minInputs = 2,
               .maxInputs = 2,
               .optionsType = optionsTypeOf<tflite::MulOptions>(),
               .maxVersion = 7,
               .readOptions = readMulOptions},
    .shape = broadcastShape,
    .kernel = &reference::kMulKernel,
    .lower = lowering::lowerMul,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
