// The element-wise activations: LOGISTIC, TANH, RELU, RELU6, LEAKY_RELU and
// HARD_SWISH. Each output has its input's shape and type.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kLogisticKernel;
extern const Kernel kTanhKernel;
extern const Kernel kReluKernel;
extern const Kernel kRelu6Kernel;
extern const Kernel kLeakyReluKernel;
extern const Kernel kHardSwishKernel;
}  // namespace loupe::reference

namespace loupe::ops {

namespace {

ir::Attributes readLeakyReluOptions(const tflite::Operator& op, const std::string& where) {
  ir::LeakyReluAttrs a;
  if (const auto* o = optionsAs<tflite::LeakyReluOptions>(op)) a.alpha = o->alpha();
  a.alpha = readFinite(a.alpha, "alpha", where);
  return a;
}

}  // namespace

extern const OperatorDefinition kLogisticDefinition{
    .type = ir::OpType::Logistic,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = {.maxVersion = 3},
    .shape = sameAsInput,
    .kernel = &reference::kLogisticKernel,
    .lower = lowering::lowerLogistic,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kTanhDefinition{
    .type = ir::OpType::Tanh,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = {.maxVersion = 3},
    .shape = sameAsInput,
    .kernel = &reference::kTanhKernel,
    .lower = lowering::lowerTanh,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kReluDefinition{
    .type = ir::OpType::Relu,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = {.maxVersion = 3},
    .shape = sameAsInput,
    .kernel = &reference::kReluKernel,
    .lower = lowering::lowerRelu,
};

extern const OperatorDefinition kRelu6Definition{
    .type = ir::OpType::Relu6,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = {.maxVersion = 3},
    .shape = sameAsInput,
    .kernel = &reference::kRelu6Kernel,
    .lower = lowering::lowerRelu6,
};

extern const OperatorDefinition kLeakyReluDefinition{
    .type = ir::OpType::LeakyRelu,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = {.optionsType = optionsTypeOf<tflite::LeakyReluOptions>(),
               .maxVersion = 2,
               .readOptions = readLeakyReluOptions},
    .shape = sameAsInput,
    .kernel = &reference::kLeakyReluKernel,
    .lower = lowering::lowerLeakyRelu,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kHardSwishDefinition{
    .type = ir::OpType::HardSwish,
    .dtypes = "float32, int8 (input and output same type)",
    .import = {.optionsType = optionsTypeOf<tflite::HardSwishOptions>()},
    .shape = sameAsInput,
    .kernel = &reference::kHardSwishKernel,
    .lower = lowering::lowerHardSwish,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
