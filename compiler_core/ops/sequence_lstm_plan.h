// UNIDIRECTIONAL_SEQUENCE_LSTM parameters as TFLite Micro derives them in
// Prepare (lstm_eval_common.cc): sizes, and for the integer variants the
// fully-connected and element-wise multiplication parameters of every gate.
// Shared by the reference kernel and the code generator.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "ir/graph.h"

namespace loupe::reference {

// TFLite's input slots of the operator (lstm_shared.h).
enum LstmSlot : std::size_t {
  kLstmInput = 0,
  kLstmInputToInputWeights = 1,
  kLstmInputToForgetWeights = 2,
  kLstmInputToCellWeights = 3,
  kLstmInputToOutputWeights = 4,
  kLstmRecurrentToInputWeights = 5,
  kLstmRecurrentToForgetWeights = 6,
  kLstmRecurrentToCellWeights = 7,
  kLstmRecurrentToOutputWeights = 8,
  kLstmCellToInputWeights = 9,
  kLstmCellToForgetWeights = 10,
  kLstmCellToOutputWeights = 11,
  kLstmInputGateBias = 12,
  kLstmForgetGateBias = 13,
  kLstmCellGateBias = 14,
  kLstmOutputGateBias = 15,
  kLstmProjectionWeights = 16,
  kLstmProjectionBias = 17,
  kLstmOutputState = 18,
  kLstmCellState = 19,
  kLstmInputLayerNorm = 20,
  kLstmForgetLayerNorm = 21,
  kLstmCellLayerNorm = 22,
  kLstmOutputLayerNorm = 23,
  kLstmSlotCount = 24,
};

// Gates in TFLite Micro's evaluation order of the weights: input, forget,
// cell, output (the slots above are each gate's input weights + offset).
enum LstmGate { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };

// One quantised fully-connected layer (TFLite's FullyConnectedParams).
struct LstmFullyConnectedParams {
  std::int32_t inputOffset = 0;    // -input zero point
  std::int32_t weightsOffset = 0;  // -weights zero point
  std::int32_t multiplier = 0;
  int shift = 0;
};

// One quantised element-wise multiplication (TFLite's ArithmeticParams).
struct LstmMulParams {
  std::int32_t multiplier = 0;
  int shift = 0;
  std::int32_t outputOffset = 0;
  std::int32_t activationMin = 0;
  std::int32_t activationMax = 0;
};

struct SequenceLstmPlan {
  bool timeMajor = false;
  int batches = 0;
  int timeSteps = 0;
  int inputSize = 0;
  int stateSize = 0;  // hidden and cell state width
  float cellClip = 0.0f;
  // Integer variants.
  std::array<LstmFullyConnectedParams, 4> inputFc{};      // per gate, input x weights
  std::array<LstmFullyConnectedParams, 4> recurrentFc{};  // per gate, hidden x weights
  LstmMulParams forgetTimesCell;                          // forget gate x cell state -> cell state
  LstmMulParams inputTimesCell;                           // input gate x cell gate -> cell state
  LstmMulParams tanhTimesOutput;  // tanh(cell) x output gate -> hidden state
  int cellStateScalePower = 0;    // cell state scale = 2^power
  std::int16_t quantizedCellClip = 0;
};

SequenceLstmPlan planSequenceLstm(const ir::Graph& graph, const ir::Operator& op);

// Which slice of the tensors one LSTM step reads and writes, and the steps in
// TFLite's order: time-major steps through time with all batches at once,
// batch-major through each batch's sequence (the variants' kernels share it).
struct LstmStepWindow {
  int rows;  // batches handled together: all when time-major, else 1
  int inputOffset, outputOffset, stateOffset;
};

template <typename StepFunction>
void forEachStep(const SequenceLstmPlan& p, StepFunction step) {
  if (p.timeMajor) {
    for (int t = 0; t < p.timeSteps; ++t) {
      step(LstmStepWindow{p.batches, t * p.batches * p.inputSize, t * p.batches * p.stateSize, 0});
    }
    return;
  }
  for (int b = 0; b < p.batches; ++b) {
    for (int t = 0; t < p.timeSteps; ++t) {
      const int sequence = b * p.timeSteps + t;
      step(LstmStepWindow{1, sequence * p.inputSize, sequence * p.stateSize, b * p.stateSize});
    }
  }
}

// The checks every variant shares: the 24 slots, the standard LSTM (TANH, no
// CIFG, peephole, projection or layer normalisation), variable states, and
// the shapes of the tensors against each other.
std::optional<std::string> checkSequenceLstmStructure(const ir::Graph& graph,
                                                      const ir::Operator& op);

}  // namespace loupe::reference
