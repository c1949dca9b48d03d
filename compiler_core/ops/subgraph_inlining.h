// A subgraph as statements of a control-flow operator's function: each of its
// operators lowered as it would be on its own, its body placed over the
// function's buffers. The subgraph's inputs are read from the buffers the
// caller gives, its outputs land in the caller's buffers (a tensor that an
// operator produces is written there directly; an input or constant passed
// straight through is copied), and every other tensor it computes becomes an
// allocation of the function, lifted into the workspace scratch when large
// (tir/lift_scratch.h). Constants and runtime headers join the function's.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"
#include "tir/prim_func.h"

namespace loupe::ops {

// Throws lowering::LoweringError naming the subgraph operator that has no C.
// `prefix` keeps this copy's names apart from the function's others.
tir::Stmt inlineSubgraph(const ir::Graph& subgraph, const std::vector<tir::Buffer>& inputs,
                         const std::vector<tir::Buffer>& outputs, const std::string& prefix,
                         tir::PrimFunc& into);

// `to`[i] = `from`[i] for every element (buffers of one element type).
tir::Stmt copyElements(const tir::Buffer& to, const tir::Buffer& from);

}  // namespace loupe::ops
