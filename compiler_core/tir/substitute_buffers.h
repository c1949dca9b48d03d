// Replaces buffers by others, by identity, wherever a statement loads,
// stores, takes the address of or allocates them: how one lowered operator's
// body is placed inside another function over that function's buffers (a
// control-flow operator runs its subgraphs' operators this way).
#pragma once

#include <map>

#include "tir/stmt.h"

namespace loupe::tir {

using BufferMap = std::map<const BufferNode*, Buffer>;

Expr substituteBuffers(const Expr& expr, const BufferMap& buffers);
Stmt substituteBuffers(const Stmt& stmt, const BufferMap& buffers);

}  // namespace loupe::tir
