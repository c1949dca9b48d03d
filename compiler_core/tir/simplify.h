// TIR simplification passes, run on every lowered function before C is
// printed (and shown in the TIR view after them):
//   foldConstants      constant folding of index expressions (x*1, x+0,
//                      (x+c1)+c2, constant operands, constant conditions);
//   removeNoOpLoops    loops of extent 0 vanish, extent 1 become their body;
//   unrollLoops        loops marked Unrolled with a small constant extent
//                      are expanded;
//   hoistInvariants    Let bindings that do not depend on a loop's variable
//                      (per-channel requantisation parameters, row offsets)
//                      move out of that loop.
// simplify() runs them in that order until nothing changes.
// dropUnusedConstants then removes the constants no statement reads any
// more (a depthwise window that never meets the input leaves its filter
// unread), which C compilers would warn about.
#pragma once

#include <map>

#include "tir/prim_func.h"
#include "tir/stmt.h"

namespace loupe::tir {

Expr foldConstants(const Expr& expr);
Stmt foldConstants(const Stmt& stmt);
Stmt removeNoOpLoops(const Stmt& stmt);
Stmt unrollLoops(const Stmt& stmt, std::int64_t maxExtent = 8);
Stmt hoistInvariants(const Stmt& stmt);
Stmt simplify(const Stmt& stmt);
void dropUnusedConstants(PrimFunc& func);

// Replaces variables by expressions (by identity, not by name).
Expr substitute(const Expr& expr, const std::map<const VarNode*, Expr>& values);
Stmt substitute(const Stmt& stmt, const std::map<const VarNode*, Expr>& values);

// Whether `expr` reads variable `var`.
bool usesVar(const Expr& expr, const VarNode* var);

}  // namespace loupe::tir
