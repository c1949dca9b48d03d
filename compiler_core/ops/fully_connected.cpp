// FULLY_CONNECTED: rows of the input times the transposed [units, depth]
// weights, plus an optional bias. Float32 input with int8 weights is the
// hybrid kernel (ops/fully_connected_hybrid.h); every other combination the
// reference kernel and lowerings of ops/fully_connected_reference.cpp,
// _lowering.cpp and _simd.cpp.
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"
#include "ops/fully_connected_hybrid.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"

namespace loupe::reference {
extern const Kernel kFullyConnectedKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readFullyConnectedOptions(const tflite::Operator& op, const std::string& where) {
  ir::FullyConnectedAttrs a;
  if (const auto* o = optionsAs<tflite::FullyConnectedOptions>(op)) {
    if (o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT) {
      failOptions(where, "the shuffled weights format (SHUFFLED4x16INT8) is not supported");
    }
    a.activation = readActivation(o->fused_activation_function(), where);
    a.keepNumDims = o->keep_num_dims();
    a.asymmetricQuantizeInputs = o->asymmetric_quantize_inputs();
  }
  return a;
}

// The input flattened to rows of the weights' depth; keep_num_dims keeps the
// input's leading dimensions.
std::optional<InferredOutput> fullyConnectedShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* weights = graph.input(op, 1);
  if (input == nullptr || weights == nullptr) return shapeProblem("an input and weights");
  if (weights->shape.size() != 2) return shapeProblem("2-D weights, found " + tensorText(*weights));
  const std::int32_t units = weights->shape[0];
  const std::int32_t depth = weights->shape[1];
  if (depth <= 0 || input->elementCount() % depth != 0) {
    return shapeProblem("an input of whole rows of the weights' depth " + std::to_string(depth) +
                        ", found " + tensorText(*input));
  }
  const auto& attrs = std::get<ir::FullyConnectedAttrs>(op.attributes);
  if (attrs.keepNumDims && !input->shape.empty()) {
    ir::Shape shape = input->shape;
    shape.back() = units;
    return shaped(shape, {input->dtype});
  }
  return shaped({static_cast<std::int32_t>(input->elementCount() / depth), units}, {input->dtype});
}

// One MAC per weight and row (weights [units, depth]).
std::int64_t fullyConnectedMacs(const ir::Graph& graph, const ir::Operator& op) {
  return graph.output(op, 0).elementCount() * dimensionOf(graph.input(op, 1), 1);
}

std::optional<std::string> checkFullyConnected(const ir::Graph& graph, const ir::Operator& op) {
  if (isHybridFullyConnected(graph, op)) return checkHybridFullyConnected(graph, op);
  return reference::kFullyConnectedKernel.check(graph, op);
}

void evalFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                        reference::TensorStore& store) {
  if (isHybridFullyConnected(graph, op)) return evalHybridFullyConnected(graph, op, store);
  reference::kFullyConnectedKernel.eval(graph, op, store);
}

tir::PrimFunc lowerFullyConnected(const ir::Graph& graph, const ir::Operator& op,
                                  const std::string& functionName) {
  if (isHybridFullyConnected(graph, op)) {
    return lowerHybridFullyConnected(graph, op, functionName);
  }
  return lowering::lowerFullyConnected(graph, op, functionName);
}

// The DSP/MVE kernels cover integer activations only.
std::optional<tir::PrimFunc> lowerFullyConnectedSimd(const ir::Graph& graph, const ir::Operator& op,
                                                     const std::string& functionName,
                                                     target::CpuIsa isa,
                                                     const lowering::Schedule& schedule) {
  if (isHybridFullyConnected(graph, op)) return std::nullopt;
  return lowering::lowerFullyConnectedSimd(graph, op, functionName, isa, schedule);
}

const reference::Kernel kFullyConnectedKernel{ir::OpType::FullyConnected, checkFullyConnected,
                                              evalFullyConnected};

}  // namespace

extern const OperatorDefinition kFullyConnectedDefinition{
    .type = ir::OpType::FullyConnected,
    .dtypes =
        "float32, int8 (int32 bias), int16 (16x8: int16 activations, int8 weights, int32/int64 "
        "bias); hybrid: float32 activations, int8 per-tensor or per-channel weights (TFLite's "
        "kernel)",
    .import = {.minInputs = 2,
               .maxInputs = 3,
               .optionsType = optionsTypeOf<tflite::FullyConnectedOptions>(),
               .maxVersion = 12,
               .readOptions = readFullyConnectedOptions},
    .shape = fullyConnectedShape,
    .kernel = &kFullyConnectedKernel,
    .lower = lowerFullyConnected,
    .lowerSimd = lowerFullyConnectedSimd,
    .macs = fullyConnectedMacs,
};

}  // namespace loupe::ops
