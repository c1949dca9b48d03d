// SVDF: a rank-factored recurrent filter over a feature bank, with a
// variable activation state.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

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

}  // namespace

extern const OperatorDefinition kSvdfDefinition{
    .type = ir::OpType::Svdf,
    .dtypes =
        "float32 (all float32); int8 in/out, int8 weights_feature, int16 or int8 "
        "weights_time+state, int32 bias",
    .import = {.minInputs = 5,
               .maxInputs = 5,
               .optionsType = optionsTypeOf<tflite::SVDFOptions>(),
               .optionsRequired = true,
               .maxVersion = 4,
               .readOptions = readSvdfOptions},
    .kernel = &reference::kSvdfKernel,
    .lower = lowering::lowerSvdf,
    .macs = svdfMacs,
};

}  // namespace loupe::ops
