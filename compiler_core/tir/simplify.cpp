#include "tir/simplify.h"

#include <functional>
#include <set>

#include "tir/intrinsics.h"
#include "tir/tir_printer.h"

namespace loupe::tir {

namespace {

// Rebuilds an expression node with new operands (same kind, type, payload).
Expr withOperands(const Expr& e, std::vector<Expr> operands) {
  auto n = std::make_shared<ExprNode>(*e);
  n->operands = std::move(operands);
  return Expr(std::shared_ptr<const ExprNode>(n));
}

std::int64_t wrapTo(ScalarType type, std::int64_t v) {
  switch (type) {
    case ScalarType::Int8:
      return static_cast<std::int8_t>(v);
    case ScalarType::UInt8:
      return static_cast<std::uint8_t>(v);
    case ScalarType::Int16:
      return static_cast<std::int16_t>(v);
    case ScalarType::Int32:
      return static_cast<std::int32_t>(v);
    case ScalarType::Bool:
      return v != 0;
    default:
      return v;
  }
}

bool isPure(const Expr& e) {
  if (e->kind == ExprKind::Call && e->callKind == CallKind::Extern) return false;
  if (e->kind == ExprKind::Call) {
    const auto intrinsic = findIntrinsic(e->callee);
    if (!intrinsic || !intrinsic->pure) return false;
  }
  for (const Expr& o : e->operands) {
    if (!isPure(o)) return false;
  }
  return true;
}

std::optional<std::int64_t> foldInts(ExprKind kind, std::int64_t a, std::int64_t b) {
  switch (kind) {
    case ExprKind::Add:
      return a + b;
    case ExprKind::Sub:
      return a - b;
    case ExprKind::Mul:
      return a * b;
    case ExprKind::Div:
      return b == 0 ? std::nullopt : std::optional(a / b);
    case ExprKind::Mod:
      return b == 0 ? std::nullopt : std::optional(a % b);
    case ExprKind::Min:
      return std::min(a, b);
    case ExprKind::Max:
      return std::max(a, b);
    case ExprKind::Shl:
      return (b < 0 || b > 62) ? std::nullopt : std::optional(a * (std::int64_t{1} << b));
    case ExprKind::Shr:
      return (b < 0 || b > 62) ? std::nullopt : std::optional(a >> b);
    case ExprKind::Lt:
      return a < b;
    case ExprKind::Le:
      return a <= b;
    case ExprKind::Gt:
      return a > b;
    case ExprKind::Ge:
      return a >= b;
    case ExprKind::Eq:
      return a == b;
    case ExprKind::Ne:
      return a != b;
    case ExprKind::And:
      return (a != 0) && (b != 0);
    case ExprKind::Or:
      return (a != 0) || (b != 0);
    default:
      return std::nullopt;
  }
}

Expr foldNode(const Expr& e) {
  if (e->operands.size() != 2 || e->kind == ExprKind::Load || e->kind == ExprKind::Call ||
      e->kind == ExprKind::Select) {
    if (e->kind == ExprKind::Cast && isIntImm(e->operands[0]) && !isFloat(e->type)) {
      return intImm(wrapTo(e->type, e->operands[0]->intValue), e->type);
    }
    if (e->kind == ExprKind::Select && isIntImm(e->operands[0])) {
      return e->operands[0]->intValue != 0 ? e->operands[1] : e->operands[2];
    }
    return e;
  }
  const Expr& a = e->operands[0];
  const Expr& b = e->operands[1];
  if (isIntImm(a) && isIntImm(b)) {
    if (auto v = foldInts(e->kind, a->intValue, b->intValue)) {
      return intImm(wrapTo(e->type, *v), e->type);
    }
  }
  switch (e->kind) {
    case ExprKind::Add:
      if (isIntImm(b, 0)) return a;
      if (isIntImm(a, 0)) return b;
      if (isIntImm(a)) return foldNode(binary(ExprKind::Add, b, a));  // constants to the right
      // (x + c1) + c2 -> x + (c1 + c2); (x - c1) + c2 -> x + (c2 - c1)
      if (isIntImm(b) && a->kind == ExprKind::Add && isIntImm(a->operands[1])) {
        return foldNode(binary(ExprKind::Add, a->operands[0],
                               intImm(a->operands[1]->intValue + b->intValue, e->type)));
      }
      if (isIntImm(b) && a->kind == ExprKind::Sub && isIntImm(a->operands[1])) {
        return foldNode(binary(ExprKind::Add, a->operands[0],
                               intImm(b->intValue - a->operands[1]->intValue, e->type)));
      }
      // (x + c) + y -> (x + y) + c, so offsets gather at the outside.
      if (!isIntImm(b) && a->kind == ExprKind::Add && isIntImm(a->operands[1])) {
        return foldNode(binary(ExprKind::Add, foldNode(binary(ExprKind::Add, a->operands[0], b)),
                               a->operands[1]));
      }
      break;
    case ExprKind::Sub:
      if (isIntImm(b, 0)) return a;
      if (isIntImm(b)) return foldNode(binary(ExprKind::Add, a, intImm(-b->intValue, e->type)));
      break;
    case ExprKind::Mul:
      if (isIntImm(b, 1)) return a;
      if (isIntImm(a, 1)) return b;
      if ((isIntImm(a, 0) && isPure(b)) || (isIntImm(b, 0) && isPure(a))) return intImm(0, e->type);
      if (isIntImm(a)) return foldNode(binary(ExprKind::Mul, b, a));
      // (x + c1) * c2 -> x*c2 + c1*c2: offsets fold into one constant.
      if (isIntImm(b) && a->kind == ExprKind::Add && isIntImm(a->operands[1])) {
        return foldNode(binary(ExprKind::Add, foldNode(binary(ExprKind::Mul, a->operands[0], b)),
                               intImm(a->operands[1]->intValue * b->intValue, e->type)));
      }
      if (isIntImm(b) && a->kind == ExprKind::Mul && isIntImm(a->operands[1])) {
        return foldNode(binary(ExprKind::Mul, a->operands[0],
                               intImm(a->operands[1]->intValue * b->intValue, e->type)));
      }
      break;
    case ExprKind::Div:
      if (isIntImm(b, 1)) return a;
      break;
    case ExprKind::And:
      if (isIntImm(a)) return a->intValue != 0 ? b : a;
      if (isIntImm(b)) return b->intValue != 0 ? a : b;
      break;
    case ExprKind::Or:
      if (isIntImm(a)) return a->intValue != 0 ? a : b;
      if (isIntImm(b)) return b->intValue != 0 ? b : a;
      break;
    default:
      break;
  }
  return e;
}

template <typename ExprFn>
Stmt mapExprs(const Stmt& s, ExprFn&& f, const std::function<Stmt(const Stmt&)>& recurse) {
  auto n = std::make_shared<StmtNode>(*s);
  for (Expr* e : {&n->min, &n->extent, &n->value, &n->condition, &n->index}) {
    if (*e) *e = f(*e);
  }
  for (Stmt& child : n->seq) child = recurse(child);
  if (n->body) n->body = recurse(n->body);
  if (n->otherwise) n->otherwise = recurse(n->otherwise);
  if (n->kind == StmtKind::Seq) return seq(n->seq);
  return n;
}

bool stmtUsesVar(const Stmt& s, const VarNode* var) {
  if (!s) return false;
  for (const Expr* e : {&s->min, &s->extent, &s->value, &s->condition, &s->index}) {
    if (*e && usesVar(*e, var)) return true;
  }
  for (const Stmt& c : s->seq) {
    if (stmtUsesVar(c, var)) return true;
  }
  return stmtUsesVar(s->body, var) || stmtUsesVar(s->otherwise, var);
}

// Buffers an impure call may write: those it is passed the address of.
void addressedBuffers(const Expr& e, std::set<const BufferNode*>& out) {
  if (!e) return;
  if (e->kind == ExprKind::AddressOf) out.insert(e->buffer.get());
  for (const Expr& o : e->operands) addressedBuffers(o, out);
}

// Buffers a statement stores to, itself or through a kernel call (a
// hoisted Let must not read them).
void storedBuffers(const Stmt& s, std::set<const BufferNode*>& out) {
  if (!s) return;
  if (s->kind == StmtKind::Store) out.insert(s->buffer.get());
  if (s->kind == StmtKind::Evaluate && !isPure(s->value)) addressedBuffers(s->value, out);
  for (const Stmt& c : s->seq) storedBuffers(c, out);
  storedBuffers(s->body, out);
  storedBuffers(s->otherwise, out);
}

// Buffers an expression or statement loads, stores, takes the address of
// or allocates.
void referencedBuffers(const Expr& e, std::set<const BufferNode*>& out) {
  if (!e) return;
  if (e->buffer) out.insert(e->buffer.get());
  for (const Expr& o : e->operands) referencedBuffers(o, out);
}

void referencedBuffers(const Stmt& s, std::set<const BufferNode*>& out) {
  if (!s) return;
  if (s->buffer) out.insert(s->buffer.get());
  for (const Expr* e : {&s->min, &s->extent, &s->value, &s->condition, &s->index}) {
    referencedBuffers(*e, out);
  }
  for (const Stmt& c : s->seq) referencedBuffers(c, out);
  referencedBuffers(s->body, out);
  referencedBuffers(s->otherwise, out);
}

bool readsAny(const Expr& e, const std::set<const BufferNode*>& buffers) {
  if (e->kind == ExprKind::Load && buffers.contains(e->buffer.get())) return true;
  for (const Expr& o : e->operands) {
    if (readsAny(o, buffers)) return true;
  }
  return false;
}

}  // namespace

bool usesVar(const Expr& e, const VarNode* var) {
  if (e->kind == ExprKind::VarRef && e->var.get() == var) return true;
  for (const Expr& o : e->operands) {
    if (usesVar(o, var)) return true;
  }
  return false;
}

Expr substitute(const Expr& e, const std::map<const VarNode*, Expr>& values) {
  if (e->kind == ExprKind::VarRef) {
    auto it = values.find(e->var.get());
    return it == values.end() ? e : it->second;
  }
  if (e->operands.empty()) return e;
  std::vector<Expr> ops;
  bool changed = false;
  for (const Expr& o : e->operands) {
    ops.push_back(substitute(o, values));
    changed = changed || ops.back().get() != o.get();
  }
  return changed ? withOperands(e, std::move(ops)) : e;
}

Stmt substitute(const Stmt& s, const std::map<const VarNode*, Expr>& values) {
  if (!s) return s;
  return mapExprs(
      s, [&](const Expr& e) { return substitute(e, values); },
      [&](const Stmt& c) { return substitute(c, values); });
}

Expr foldConstants(const Expr& e) {
  if (e->operands.empty()) return e;
  std::vector<Expr> ops;
  for (const Expr& o : e->operands) ops.push_back(foldConstants(o));
  return foldNode(withOperands(e, std::move(ops)));
}

Stmt foldConstants(const Stmt& s) {
  if (!s) return s;
  Stmt folded = mapExprs(
      s, [](const Expr& e) { return foldConstants(e); },
      [](const Stmt& c) { return foldConstants(c); });
  if (folded->kind == StmtKind::IfThenElse && isIntImm(folded->condition)) {
    return folded->condition->intValue != 0 ? folded->body
                                            : (folded->otherwise ? folded->otherwise : seq({}));
  }
  return folded;
}

Stmt removeNoOpLoops(const Stmt& s) {
  if (!s) return s;
  Stmt inner = mapExprs(
      s, [](const Expr& e) { return e; }, [](const Stmt& c) { return removeNoOpLoops(c); });
  if (inner->kind == StmtKind::For && isIntImm(inner->extent)) {
    if (inner->extent->intValue <= 0) return seq({});
    if (inner->extent->intValue == 1) {
      return foldConstants(substitute(inner->body, {{inner->var.get(), inner->min}}));
    }
  }
  return inner;
}

Stmt unrollLoops(const Stmt& s, std::int64_t maxExtent) {
  if (!s) return s;
  Stmt inner = mapExprs(
      s, [](const Expr& e) { return e; },
      [maxExtent](const Stmt& c) { return unrollLoops(c, maxExtent); });
  if (inner->kind == StmtKind::For && inner->forKind == ForKind::Unrolled &&
      isIntImm(inner->extent) && isIntImm(inner->min) && inner->extent->intValue <= maxExtent) {
    std::vector<Stmt> copies;
    for (std::int64_t i = 0; i < inner->extent->intValue; ++i) {
      copies.push_back(foldConstants(substitute(
          inner->body, {{inner->var.get(), intImm(inner->min->intValue + i, inner->var->type)}})));
    }
    return seq(std::move(copies));
  }
  return inner;
}

Stmt hoistInvariants(const Stmt& s) {
  if (!s) return s;
  Stmt inner = mapExprs(
      s, [](const Expr& e) { return e; }, [](const Stmt& c) { return hoistInvariants(c); });
  if (inner->kind != StmtKind::For) return inner;
  // Leading Lets of the loop body whose values do not read the loop variable
  // (nor a buffer the loop writes) are computed once, before the loop.
  std::set<const BufferNode*> written;
  storedBuffers(inner->body, written);
  std::vector<std::pair<Var, Expr>> hoisted;
  Stmt body = inner->body;
  while (body->kind == StmtKind::Let && !usesVar(body->value, inner->var.get()) &&
         isPure(body->value) && !readsAny(body->value, written)) {
    hoisted.emplace_back(body->var, body->value);
    body = body->body;
  }
  if (hoisted.empty()) return inner;
  Stmt result = forLoop(inner->var, inner->min, inner->extent, body, inner->forKind);
  for (auto it = hoisted.rbegin(); it != hoisted.rend(); ++it)
    result = let(it->first, it->second, result);
  return result;
}

Stmt simplify(const Stmt& stmt) {
  Stmt current = stmt;
  for (int round = 0; round < 8; ++round) {
    Stmt next = hoistInvariants(unrollLoops(removeNoOpLoops(foldConstants(current))));
    if (printStmt(next) == printStmt(current)) return next;
    current = next;
  }
  return current;
}

void dropUnusedConstants(PrimFunc& func) {
  std::set<const BufferNode*> used;
  referencedBuffers(func.body, used);
  std::erase_if(func.constants, [&](const Buffer& b) { return !used.contains(b.get()); });
}

}  // namespace loupe::tir
