// A deterministic, human-readable text form of the graph IR: one line per
// tensor of interest and per operator in execution order. Used by
// `loupec info`, the GUI's stage views and tests that compare graphs.
// What passes add shows up too: `padding=explicit(t=0,b=1,l=0,r=1)` in the
// attributes, and after an operator's `// op N vV` comment `fused from #3,#4`
// (the model operators it stands for), `from #4` (its model index when that
// differs from its position) and `view` (no copy); after partitioning,
// `target npu region npu_0` and, below the graph, one `def @npu_0(...)` per
// external function and main's calls.
#pragma once

#include <cstdint>
#include <string>

#include "ir/graph.h"

namespace loupe::ir {

std::string shapeToString(const Shape& shape);            // "[1,49,10,1]"
std::string quantizationToString(const Quantization& q);  // "q(0.584702909, 83)" or ""
std::string tensorTypeToString(const Tensor& tensor);     // "int8[1,49,10,1] q(0.584702909, 83)"
std::string attributesToString(const Attributes& attributes);  // "padding=SAME stride=2x2 ..."

// 9 significant digits: enough to give back the exact float32, as the golden
// manifests print scales.
std::string floatToString(float value);

// 1234567 -> "1,234,567": MACs and byte counts as the CLI and the GUI show them.
std::string groupDigits(std::int64_t value);

std::string printGraph(const Graph& graph);

}  // namespace loupe::ir
