// Where a quantized model loses accuracy: it and the float model it was
// converted from run on the reference interpreter over the same inputs (the
// float model gets their real values), and every operator output of the
// quantized model is compared, on real values, with the float model's tensor
// of the same name (TFLite's converter keeps the names). `loupec validate
// --float` prints the result layer by layer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "deploy/validation_metrics.h"
#include "ir/graph.h"

namespace loupe::deploy {

struct LayerComparison {
  int operatorIndex = -1;  // in the quantized model, whose execution order the list follows
  std::string operatorType;
  std::string tensorName;
  ValidationMetrics metrics;  // the float model's values expected
};

struct FloatModelComparison {
  std::vector<LayerComparison> layers;
  // Operator outputs of the quantized model that the float model has no
  // non-constant tensor for of the same name and element count.
  std::vector<std::string> unmatched;
};

// `inputs` are the quantized model's, in its input order; the float model
// must take as many inputs with the same element counts, each float32 (given
// the real values) or typed and quantized as the quantized model's (given
// the same bytes). Throws std::invalid_argument when it does not, and what
// the reference interpreter throws.
FloatModelComparison compareWithFloatModel(const ir::Graph& quantized, const ir::Graph& floatModel,
                                           const std::vector<std::vector<std::uint8_t>>& inputs);

}  // namespace loupe::deploy
