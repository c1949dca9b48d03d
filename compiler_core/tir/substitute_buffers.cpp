#include "tir/substitute_buffers.h"

namespace loupe::tir {

namespace {

Buffer replaced(const Buffer& buffer, const BufferMap& buffers) {
  if (!buffer) return buffer;
  const auto it = buffers.find(buffer.get());
  return it == buffers.end() ? buffer : it->second;
}

}  // namespace

Expr substituteBuffers(const Expr& expr, const BufferMap& buffers) {
  if (!expr) return expr;
  auto node = std::make_shared<ExprNode>(*expr);
  node->buffer = replaced(node->buffer, buffers);
  for (Expr& operand : node->operands) operand = substituteBuffers(operand, buffers);
  return Expr(std::shared_ptr<const ExprNode>(std::move(node)));
}

Stmt substituteBuffers(const Stmt& stmt, const BufferMap& buffers) {
  if (!stmt) return stmt;
  auto node = std::make_shared<StmtNode>(*stmt);
  node->buffer = replaced(node->buffer, buffers);
  for (Expr* e : {&node->min, &node->extent, &node->value, &node->condition, &node->index}) {
    *e = substituteBuffers(*e, buffers);
  }
  for (Stmt& child : node->seq) child = substituteBuffers(child, buffers);
  node->body = substituteBuffers(node->body, buffers);
  node->otherwise = substituteBuffers(node->otherwise, buffers);
  return node;
}

}  // namespace loupe::tir
