// UNIDIRECTIONAL_SEQUENCE_LSTM: an LSTM layer run over every time step, with
// variable output and cell states. Float32 input with int8 weights is the
// hybrid kernel (ops/sequence_lstm_hybrid.h); every other combination the
// reference kernel and lowering of ops/sequence_lstm_reference.cpp and
// _lowering.cpp.
#include <cmath>

#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/sequence_lstm_hybrid.h"

namespace loupe::reference {
extern const Kernel kSequenceLstmKernel;
}

namespace loupe::ops {

namespace {

ir::Attributes readSequenceLstmOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::UnidirectionalSequenceLSTMOptions>(op);
  ir::SequenceLstmAttrs a;
  a.activation = readActivation(o->fused_activation_function(), where);
  a.cellClip = o->cell_clip();
  a.projClip = o->proj_clip();
  if (!std::isfinite(a.cellClip) || a.cellClip < 0 || !std::isfinite(a.projClip) ||
      a.projClip < 0) {
    failOptions(where, "cell_clip and proj_clip must be finite and not negative");
  }
  a.timeMajor = o->time_major();
  a.asymmetricQuantizeInputs = o->asymmetric_quantize_inputs();
  a.diagonalRecurrentTensors = o->diagonal_recurrent_tensors();
  return a;
}

// Four gates, each an input and a recurrent matrix product per time step.
std::int64_t sequenceLstmMacs(const ir::Graph& graph, const ir::Operator& op) {
  std::int64_t weightElements = 0;
  for (std::size_t slot = 1; slot <= 8; ++slot) {
    if (const ir::Tensor* w = graph.input(op, slot)) weightElements += w->elementCount();
  }
  if (const ir::Tensor* projection = graph.input(op, 16)) {
    weightElements += projection->elementCount();
  }
  const auto& a = std::get<ir::SequenceLstmAttrs>(op.attributes);
  const ir::Tensor* input = graph.input(op, 0);
  const std::int64_t steps = a.timeMajor ? dimensionOf(input, 0) : dimensionOf(input, 1);
  const std::int64_t batches = a.timeMajor ? dimensionOf(input, 1) : dimensionOf(input, 0);
  return steps * batches * weightElements;
}

std::optional<std::string> checkSequenceLstm(const ir::Graph& graph, const ir::Operator& op) {
  if (isHybridSequenceLstm(graph, op)) return checkHybridSequenceLstm(graph, op);
  return reference::kSequenceLstmKernel.check(graph, op);
}

void evalSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                      reference::TensorStore& store) {
  if (isHybridSequenceLstm(graph, op)) return evalHybridSequenceLstm(graph, op, store);
  reference::kSequenceLstmKernel.eval(graph, op, store);
}

tir::PrimFunc lowerSequenceLstm(const ir::Graph& graph, const ir::Operator& op,
                                const std::string& functionName) {
  if (isHybridSequenceLstm(graph, op)) return lowerHybridSequenceLstm(graph, op, functionName);
  return lowering::lowerSequenceLstm(graph, op, functionName);
}

const reference::Kernel kSequenceLstmKernel{ir::OpType::UnidirectionalSequenceLstm,
                                            checkSequenceLstm, evalSequenceLstm};

}  // namespace

extern const OperatorDefinition kUnidirectionalSequenceLstmDefinition{
    .type = ir::OpType::UnidirectionalSequenceLstm,
    .dtypes =
        "float32; int8 (int32 bias); int16 (int64 bias); int8 weights, int16 cell; hybrid: "
        "float32 input, states and biases with int8 per-tensor weights (TFLite's kernel)",
    .import = {.minInputs = 20,
               .maxInputs = 24,
               .optionsType = optionsTypeOf<tflite::UnidirectionalSequenceLSTMOptions>(),
               .optionsRequired = true,
               .maxVersion = 4,
               .readOptions = readSequenceLstmOptions},
    .kernel = &kSequenceLstmKernel,
    .lower = lowerSequenceLstm,
    .macs = sequenceLstmMacs,
};

}  // namespace loupe::ops
