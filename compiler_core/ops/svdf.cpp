// SVDF: a rank-factored recurrent filter over a feature bank, with a
// variable activation state. Float32 input with int8 weights is the hybrid
// kernel (ops/svdf_hybrid.h); every other combination the reference kernel
// and lowering of ops/svdf_reference.cpp and ops/svdf_lowering.cpp.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/svdf_hybrid.h"

namespace loupe::reference {
extern const Kernel kSvdfKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readSvdfOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::SVDFOptions>(op);
  ir::SvdfAttrs a;
  a.rank = readPositive(o->rank(), "rank", where);
  a.activation = readActivation(o->fused_activation_function(), where);
  a.asymmetricQuantizeInputs = o->asymmetric_quantize_inputs();
  return a;
}

// Feature weights [F, I] over the input and time weights [F, T] over the
// state, per batch.
std::int64_t svdfMacs(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* featureWeights = graph.input(op, 1);
  const ir::Tensor* timeWeights = graph.input(op, 2);
  const std::int64_t batches = dimensionOf(graph.input(op, 0), 0);
  return batches * (featureWeights ? featureWeights->elementCount() : 0) +
         batches * (timeWeights ? timeWeights->elementCount() : 0);
}

std::optional<std::string> checkSvdf(const ir::Graph& graph, const ir::Operator& op) {
  if (isHybridSvdf(graph, op)) return checkHybridSvdf(graph, op);
  return reference::kSvdfKernel.check(graph, op);
}

void evalSvdf(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  if (isHybridSvdf(graph, op)) return evalHybridSvdf(graph, op, store);
  reference::kSvdfKernel.eval(graph, op, store);
}

tir::PrimFunc lowerSvdf(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  if (isHybridSvdf(graph, op)) return lowerHybridSvdf(graph, op, functionName);
  return lowering::lowerSvdf(graph, op, functionName);
}

const reference::Kernel kSvdfKernel{ir::OpType::Svdf, checkSvdf, evalSvdf};

}  // namespace

extern const OperatorDefinition kSvdfDefinition{
    .type = ir::OpType::Svdf,
    .dtypes =
        "float32 (all float32); int8 in/out, int8 weights_feature, int16 or int8 "
        "weights_time+state, int32 bias; hybrid: float32 input, state and bias with int8 "
        "per-tensor weights (TFLite's kernel)",
    .import = {.minInputs = 5,
               .maxInputs = 5,
               .optionsType = optionsTypeOf<tflite::SVDFOptions>(),
               .optionsRequired = true,
               .maxVersion = 4,
               .readOptions = readSvdfOptions},
    .kernel = &kSvdfKernel,
    .lower = lowerSvdf,
    .macs = svdfMacs,
};

}  // namespace loupe::ops
