// The machine-readable description of a model that `loupec info --json`
// prints and the GUI reads: operators in execution order with their operands,
// attributes, cost, support and target, the model's inputs and outputs, and
// totals.
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

// Every operator has "supported" and "support_problems" (what the reference
// interpreter says), "target" and "region" (null until annotated and
// partitioned) and "reasons": every target's refusal, prefixed by the target
// ("npu: stride height 4 exceeds 3"); a Vela operator also has "ethos_u":
// the NPU it was compiled for, its payload, flash and scratch sizes, the
// feature maps' arena offsets and its NPU operations (npuOperationsJson).
nlohmann::json modelReportJson(const ir::Graph& graph, const std::vector<SupportProblem>& problems);

}  // namespace loupe::analysis
