#include "tir/unroll_hint.h"

#include <memory>

namespace loupe::tir {

namespace {

// Returns the statement with its innermost loops marked; `hasLoop` says
// whether `s` contains a loop at all.
Stmt mark(const Stmt& s, int factor, bool& hasLoop) {
  hasLoop = false;
  if (!s) return s;
  auto copy = std::make_shared<StmtNode>(*s);
  bool childLoop = false;
  for (Stmt& child : copy->seq) {
    bool inChild = false;
    child = mark(child, factor, inChild);
    childLoop = childLoop || inChild;
  }
  for (Stmt* child : {&copy->body, &copy->otherwise}) {
    bool inChild = false;
    *child = mark(*child, factor, inChild);
    childLoop = childLoop || inChild;
  }
  if (copy->kind == StmtKind::For) {
    if (!childLoop && copy->forKind == ForKind::Serial) copy->unrollHint = factor;
    hasLoop = true;
  } else {
    hasLoop = childLoop;
  }
  return copy;
}

}  // namespace

Stmt hintInnermostUnroll(const Stmt& body, int factor) {
  if (factor <= 1) return body;
  bool hasLoop = false;
  return mark(body, factor, hasLoop);
}

}  // namespace loupe::tir
