// TIR statements: loop nests over buffers. A lowered operator is one
// statement tree (usually a Seq of loop nests) inside a PrimFunc; the C code
// generator prints it statement for statement.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tir/expr.h"

namespace loupe::tir {

enum class StmtKind { Seq, For, Let, IfThenElse, While, Store, Allocate, Evaluate };

enum class ForKind {
  Serial,    // an ordinary loop
  Unrolled,  // small constant trip count; the unroll pass expands it
};

struct StmtNode;
using Stmt = std::shared_ptr<const StmtNode>;

struct StmtNode {
  StmtKind kind = StmtKind::Seq;
  std::vector<Stmt> seq;  // Seq
  Var var;                // For: loop variable; Let: bound variable
  Expr min, extent;       // For: [min, min + extent)
  ForKind forKind = ForKind::Serial;
  // For: the factor the C compiler is asked to unroll the loop by (a
  // schedule's unroll knob, tir/unroll_hint.h); 0 or 1: its own choice.
  int unrollHint = 0;
  Expr value;      // Let: bound value; Store: stored value; Evaluate: the call
  Expr condition;  // IfThenElse, While
  Expr index;      // Store: flat element index
  Buffer buffer;   // Store, Allocate
  Stmt body;       // For, Let, While, Allocate; IfThenElse: the then branch
  Stmt otherwise;  // IfThenElse: the else branch, or null
  // Allocate: the byte offset of the buffer in the function's workspace
  // scratch (lift_scratch.h), or -1 for a local array.
  std::int64_t scratchOffset = -1;
  // Evaluate: the call returns an int32 status; a non-zero one is returned
  // from the function at once (TVM's tvm_check_return).
  bool checkReturn = false;
};

Stmt seq(std::vector<Stmt> stmts);
Stmt forLoop(const Var& var, Expr min, Expr extent, Stmt body, ForKind kind = ForKind::Serial);
Stmt let(const Var& var, Expr value, Stmt body);
Stmt ifThenElse(Expr condition, Stmt then, Stmt otherwise = nullptr);
// Runs `body` as long as `condition` holds (WHILE's loop, whose trip count
// is data-dependent); the body must change what the condition reads.
Stmt whileLoop(Expr condition, Stmt body);
Stmt store(const Buffer& buffer, Expr index, Expr value);
Stmt allocate(const Buffer& buffer, Stmt body);
Stmt evaluate(Expr call);
// Evaluates an int32-returning call and returns its status if non-zero.
Stmt evaluateChecked(Expr call);

}  // namespace loupe::tir
