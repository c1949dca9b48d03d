// Prints TIR in the style of TVM's TVMScript, for people: the TIR view, the
// MLF's src/ folder and tests show this text. Deterministic: the same
// function always prints the same bytes. Constant data is summarised (type,
// shape, bytes), not listed.
#pragma once

#include <string>

#include "tir/prim_func.h"

namespace loupe::tir {

std::string printExpr(const Expr& expr);
std::string printStmt(const Stmt& stmt, int indent = 0);
std::string printPrimFunc(const PrimFunc& func);

}  // namespace loupe::tir
