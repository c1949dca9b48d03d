#include "tir/stmt.h"

#include <stdexcept>

namespace loupe::tir {

namespace {

std::shared_ptr<StmtNode> node(StmtKind kind) {
  auto n = std::make_shared<StmtNode>();
  n->kind = kind;
  return n;
}

}  // namespace

Stmt seq(std::vector<Stmt> stmts) {
  // Nested sequences are flattened so printers and passes see one level.
  auto n = node(StmtKind::Seq);
  for (auto& s : stmts) {
    if (!s) continue;
    if (s->kind == StmtKind::Seq) {
      n->seq.insert(n->seq.end(), s->seq.begin(), s->seq.end());
    } else {
      n->seq.push_back(std::move(s));
    }
  }
  if (n->seq.size() == 1) return n->seq.front();
  return n;
}

Stmt forLoop(const Var& var, Expr min, Expr extent, Stmt body, ForKind kind) {
  auto n = node(StmtKind::For);
  n->var = var;
  n->min = std::move(min);
  n->extent = std::move(extent);
  n->body = std::move(body);
  n->forKind = kind;
  return n;
}

Stmt let(const Var& var, Expr value, Stmt body) {
  if (value.type() != var->type) throw std::invalid_argument("TIR: let " + var->name + " type");
  auto n = node(StmtKind::Let);
  n->var = var;
  n->value = std::move(value);
  n->body = std::move(body);
  return n;
}

Stmt ifThenElse(Expr condition, Stmt then, Stmt otherwise) {
  auto n = node(StmtKind::IfThenElse);
  n->condition = std::move(condition);
  n->body = std::move(then);
  n->otherwise = std::move(otherwise);
  return n;
}

Stmt whileLoop(Expr condition, Stmt body) {
  auto n = node(StmtKind::While);
  n->condition = std::move(condition);
  n->body = std::move(body);
  return n;
}

Stmt store(const Buffer& buffer, Expr index, Expr value) {
  if (value.type() != buffer->type) {
    throw std::invalid_argument("TIR: store of " + std::string(scalarTypeName(value.type())) +
                                " into " + std::string(scalarTypeName(buffer->type)) + " buffer " +
                                buffer->name);
  }
  auto n = node(StmtKind::Store);
  n->buffer = buffer;
  n->index = std::move(index);
  n->value = std::move(value);
  return n;
}

Stmt allocate(const Buffer& buffer, Stmt body) {
  auto n = node(StmtKind::Allocate);
  n->buffer = buffer;
  n->body = std::move(body);
  return n;
}

Stmt evaluate(Expr call) {
  auto n = node(StmtKind::Evaluate);
  n->value = std::move(call);
  return n;
}

Stmt evaluateChecked(Expr call) {
  if (call.type() != ScalarType::Int32) {
    throw std::invalid_argument("evaluateChecked: the call must return an int32 status");
  }
  auto n = node(StmtKind::Evaluate);
  n->value = std::move(call);
  n->checkReturn = true;
  return n;
}

}  // namespace loupe::tir
