// The run-time check of the dividing operators (DIV, FLOOR_DIV, FLOOR_MOD):
// TFLite Micro fails Invoke on a zero divisor, so the generated C returns an
// error status before it writes any output, as the reference throws.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/graph.h"
#include "tir/stmt.h"

namespace loupe::ops {

// The loop that fails the operator when an element of input 2 (`divisors`)
// is stored as `zero` (its zero point for a quantised divisor); nothing when
// input 2 is a constant without one.
std::vector<tir::Stmt> zeroDivisorCheck(const ir::Graph& graph, const ir::Operator& op,
                                        const tir::Buffer& divisors, std::int64_t zero = 0);

}  // namespace loupe::ops
