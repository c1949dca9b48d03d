// The machine-readable description of a model that `loupec info --json`
// prints and the GUI reads: operators in execution order with their operands,
// attributes, cost and support, the model's inputs and outputs, and totals.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/graph.h"

namespace loupe::analysis {

// Why an operator cannot be compiled or run ("no reference kernel ...").
struct SupportProblem {
  int operatorIndex;
  std::string reason;
};

// {"index", "name", "dtype", "shape", "quantization", "constant", "bytes"};
// quantization is null, {"scale", "zero_point"} or, per channel,
// {"scales", "zero_points", "quantized_dimension"}.
nlohmann::json tensorJson(const ir::Tensor& tensor);

nlohmann::json modelReportJson(const ir::Graph& graph, const std::vector<SupportProblem>& problems);

}  // namespace loupe::analysis
