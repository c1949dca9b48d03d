// SOFTMAX: exp(beta * x) normalised along the last dimension.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kSoftmaxKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readSoftmaxOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::SoftmaxOptions>(op);
  return ir::SoftmaxAttrs{readFinite(o->beta(), "beta", where)};
}

// int8 SOFTMAX may write int16 probabilities.
std::optional<InferredOutput> softmaxShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::DType type = input ? input->dtype : ir::DType::Float32;
  return sameShapeAsInput(
      graph, op,
      type == ir::DType::Int8 ? std::vector{ir::DType::Int8, ir::DType::Int16} : std::vector{type});
}

}  // namespace

extern const OperatorDefinition kSoftmaxDefinition{
    .type = ir::OpType::Softmax,
    .dtypes = "float32 -> float32; int8 -> int8; int8 -> int16; int16 -> int16",
    .import = {.optionsType = optionsTypeOf<tflite::SoftmaxOptions>(),
               .optionsRequired = true,
               .maxVersion = 3,
               .readOptions = readSoftmaxOptions},
    .shape = softmaxShape,
    .kernel = &reference::kSoftmaxKernel,
    .lower = lowering::lowerSoftmax,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
