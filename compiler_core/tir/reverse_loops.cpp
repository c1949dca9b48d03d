#include "tir/reverse_loops.h"

#include <map>

#include "tir/simplify.h"

namespace loupe::tir {

namespace {

Stmt reverseNest(const Stmt& s) {
  if (!s) return s;
  switch (s->kind) {
    case StmtKind::Allocate: {
      auto copy = std::make_shared<StmtNode>(*s);
      copy->body = reverseNest(s->body);
      return copy;
    }
    case StmtKind::Let:
      return let(s->var, s->value, reverseNest(s->body));
    case StmtKind::For: {
      // i runs min .. min + extent - 1; its value counted down is
      // (2 * min + extent - 1) - i.
      const Expr last = s->min + s->min + s->extent - intImm(1);
      const Stmt inner = s->body && s->body->kind == StmtKind::For ? reverseNest(s->body) : s->body;
      auto copy = std::make_shared<StmtNode>(*s);
      copy->body = substitute(inner, {{s->var.get(), last - refVar(s->var)}});
      return copy;
    }
    default:
      return s;
  }
}

}  // namespace

PrimFunc reverseOuterLoops(const PrimFunc& f) {
  PrimFunc reversed = f;
  reversed.body = foldConstants(reverseNest(f.body));
  return reversed;
}

}  // namespace loupe::tir
