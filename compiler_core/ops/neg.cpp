// NEG: -x, for float32 as TFLite Micro supports it. Multiplying by -1 flips
// the sign bit exactly as negation does (also of zeros and NaNs).
#include "lowering/elementwise_unary.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

std::optional<std::string> checkNeg(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  if (input->dtype != ir::DType::Float32) {
    return "input dtype " + reference::describeDtype(input->dtype) +
           " is not supported (expected float32, as TFLite Micro)";
  }
  const ir::Tensor& output = graph.output(op, 0);
  if (output.dtype != input->dtype || output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's type and shape";
  }
  return std::nullopt;
}

void evalNeg(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const float* in = store.data<float>(op.inputs[0]);
  float* out = store.mutableData<float>(op.outputs[0]);
  const std::int64_t count = graph.tensor(op.inputs[0]).elementCount();
  for (std::int64_t i = 0; i < count; ++i) out[i] = -in[i];
}

tir::PrimFunc lowerNeg(const ir::Graph& graph, const ir::Operator& op,
                       const std::string& functionName) {
  lowering::UnaryElementFunction f;
  f.perElement = [](const tir::Expr& x) { return x * tir::floatImm(-1.0); };
  return lowering::lowerElementwiseUnary(graph, op, functionName, f);
}

const reference::Kernel kNegKernel{ir::OpType::Neg, checkNeg, evalNeg};

}  // namespace

extern const OperatorDefinition kNegDefinition{
    .type = ir::OpType::Neg,
    .dtypes = "float32",
    .import = {.optionsType = optionsTypeOf<tflite::NegOptions>(), .maxVersion = 2},
    .shape = sameAsInput,
    .kernel = &kNegKernel,
    .lower = lowerNeg,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
