// Semantic checks of an imported graph that the flatbuffer structure cannot
// express: operand ranks and dimensions agree with each other and with the
// operator's attributes, and every tensor an operator reads has a value by
// then. Throws ImportError naming the operator and the tensors involved.
#pragma once

#include "ir/graph.h"

namespace loupe::frontend {

void checkShapeConsistency(const ir::Graph& graph);

void checkDataflow(const ir::Graph& graph);

}  // namespace loupe::frontend
