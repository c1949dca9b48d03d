// SVDF parameters as TFLite Micro derives them in Prepare (svdf_common.cc):
// dimensions, and for the integer variant the two requantisation multipliers
// and zero points. Shared by the reference kernel and the code generator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/graph.h"

namespace loupe::reference {

struct SvdfPlan {
  int rank = 1;
  int batches = 0;
  int inputSize = 0;
  int filters = 0;  // rows of weights_feature = units * rank
  int units = 0;
  int memory = 0;  // columns of weights_time
  // Integer variant: feature result -> state scale, and state * time -> output.
  std::int32_t featureMultiplier = 0;
  int featureShift = 0;
  std::int32_t outputMultiplier = 0;
  int outputShift = 0;
  std::int32_t inputZeroPoint = 0;
  std::int32_t stateZeroPoint = 0;
  std::int32_t outputZeroPoint = 0;
};

// Inputs: (input [B,I], weights_feature [F,I], weights_time [F,M], bias [U]?,
// state [B, M*F] variable).
SvdfPlan planSvdf(const ir::Graph& graph, const ir::Operator& op);

// The checks every SVDF variant shares: its five slots, its attributes, the
// shapes of its tensors against each other, a variable state.
std::optional<std::string> checkSvdfStructure(const ir::Graph& graph, const ir::Operator& op);

// The loupe_svdf_activation code (loupe/recurrent_arith.h) of the float
// SVDF's fused activation.
int svdfActivationCode(ir::Activation activation);

}  // namespace loupe::reference
