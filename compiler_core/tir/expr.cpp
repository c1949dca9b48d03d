#include "tir/expr.h"

#include <stdexcept>

namespace loupe::tir {

namespace {

std::shared_ptr<ExprNode> node(ExprKind kind, ScalarType type) {
  auto n = std::make_shared<ExprNode>();
  n->kind = kind;
  n->type = type;
  return n;
}

// An immediate adopts the type of the other operand, so `acc + 1` stays int64
// when acc is int64; anything else must already agree.
void unifyImmediates(Expr& a, Expr& b) {
  if (a.type() == b.type()) return;
  if (a->kind == ExprKind::IntImm && !isFloat(b.type())) {
    a = intImm(a->intValue, b.type());
  } else if (b->kind == ExprKind::IntImm && !isFloat(a.type())) {
    b = intImm(b->intValue, a.type());
  } else {
    throw std::invalid_argument("TIR: operands of different types (" +
                                std::string(scalarTypeName(a.type())) + " and " +
                                std::string(scalarTypeName(b.type())) + ")");
  }
}

}  // namespace

std::int64_t BufferNode::elementCount() const {
  std::int64_t count = 1;
  for (std::int64_t d : shape) count *= d;
  return count;
}

Var makeVar(std::string name, ScalarType type) {
  return std::make_shared<const VarNode>(VarNode{std::move(name), type});
}

Expr::Expr(int value) : Expr(intImm(value)) {}

ScalarType Expr::type() const {
  return node_->type;
}

Expr intImm(std::int64_t value, ScalarType type) {
  auto n = node(ExprKind::IntImm, type);
  n->intValue = value;
  return Expr(n);
}

Expr floatImm(double value) {
  auto n = node(ExprKind::FloatImm, ScalarType::Float32);
  n->floatValue = value;
  return Expr(n);
}

Expr refVar(const Var& var) {
  auto n = node(ExprKind::VarRef, var->type);
  n->var = var;
  return Expr(n);
}

bool isComparison(ExprKind kind) {
  switch (kind) {
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Gt:
    case ExprKind::Ge:
    case ExprKind::Eq:
    case ExprKind::Ne:
    case ExprKind::And:
    case ExprKind::Or:
      return true;
    default:
      return false;
  }
}

Expr binary(ExprKind kind, Expr a, Expr b) {
  unifyImmediates(a, b);
  auto n = node(kind, isComparison(kind) ? ScalarType::Bool : a.type());
  n->operands = {std::move(a), std::move(b)};
  return Expr(n);
}

Expr cast(ScalarType type, Expr value) {
  if (value.type() == type) return value;
  auto n = node(ExprKind::Cast, type);
  n->operands = {std::move(value)};
  return Expr(n);
}

Expr minExpr(Expr a, Expr b) {
  return binary(ExprKind::Min, std::move(a), std::move(b));
}
Expr maxExpr(Expr a, Expr b) {
  return binary(ExprKind::Max, std::move(a), std::move(b));
}

Expr select(Expr condition, Expr ifTrue, Expr ifFalse) {
  unifyImmediates(ifTrue, ifFalse);
  auto n = node(ExprKind::Select, ifTrue.type());
  n->operands = {std::move(condition), std::move(ifTrue), std::move(ifFalse)};
  return Expr(n);
}

Expr load(const Buffer& buffer, Expr index) {
  auto n = node(ExprKind::Load, buffer->type);
  n->buffer = buffer;
  n->operands = {std::move(index)};
  return Expr(n);
}

Expr callIntrinsic(const std::string& name, ScalarType type, std::vector<Expr> args) {
  auto n = node(ExprKind::Call, type);
  n->callee = name;
  n->callKind = CallKind::Intrinsic;
  n->operands = std::move(args);
  return Expr(n);
}

Expr callExtern(const std::string& name, ScalarType type, std::vector<Expr> args) {
  auto n = node(ExprKind::Call, type);
  n->callee = name;
  n->callKind = CallKind::Extern;
  n->operands = std::move(args);
  return Expr(n);
}

Expr addressOf(const Buffer& buffer) {
  auto n = node(ExprKind::AddressOf, buffer->type);
  n->buffer = buffer;
  return Expr(n);
}

Expr addressOf(const Buffer& buffer, Expr index) {
  auto n = node(ExprKind::AddressOf, buffer->type);
  n->buffer = buffer;
  n->operands = {std::move(index)};
  return Expr(n);
}

Expr resourceHandle() {
  return Expr(node(ExprKind::ResourceHandle, ScalarType::Int32));
}

Expr logicalAnd(Expr a, Expr b) {
  return binary(ExprKind::And, std::move(a), std::move(b));
}
Expr logicalOr(Expr a, Expr b) {
  return binary(ExprKind::Or, std::move(a), std::move(b));
}
Expr logicalNot(Expr a) {
  auto n = node(ExprKind::Not, ScalarType::Bool);
  n->operands = {std::move(a)};
  return Expr(n);
}
Expr eq(Expr a, Expr b) {
  return binary(ExprKind::Eq, std::move(a), std::move(b));
}
Expr ne(Expr a, Expr b) {
  return binary(ExprKind::Ne, std::move(a), std::move(b));
}

Expr operator+(Expr a, Expr b) {
  return binary(ExprKind::Add, std::move(a), std::move(b));
}
Expr operator-(Expr a, Expr b) {
  return binary(ExprKind::Sub, std::move(a), std::move(b));
}
Expr operator*(Expr a, Expr b) {
  return binary(ExprKind::Mul, std::move(a), std::move(b));
}
Expr operator/(Expr a, Expr b) {
  return binary(ExprKind::Div, std::move(a), std::move(b));
}
Expr operator%(Expr a, Expr b) {
  return binary(ExprKind::Mod, std::move(a), std::move(b));
}
Expr operator<<(Expr a, Expr b) {
  return binary(ExprKind::Shl, std::move(a), std::move(b));
}
Expr operator>>(Expr a, Expr b) {
  return binary(ExprKind::Shr, std::move(a), std::move(b));
}
Expr operator<(Expr a, Expr b) {
  return binary(ExprKind::Lt, std::move(a), std::move(b));
}
Expr operator<=(Expr a, Expr b) {
  return binary(ExprKind::Le, std::move(a), std::move(b));
}
Expr operator>(Expr a, Expr b) {
  return binary(ExprKind::Gt, std::move(a), std::move(b));
}
Expr operator>=(Expr a, Expr b) {
  return binary(ExprKind::Ge, std::move(a), std::move(b));
}

bool isIntImm(const Expr& e) {
  return e && e->kind == ExprKind::IntImm;
}
bool isIntImm(const Expr& e, std::int64_t value) {
  return isIntImm(e) && e->intValue == value;
}

std::string_view binaryOperatorSymbol(ExprKind kind) {
  switch (kind) {
    case ExprKind::Add:
      return "+";
    case ExprKind::Sub:
      return "-";
    case ExprKind::Mul:
      return "*";
    case ExprKind::Div:
      return "/";
    case ExprKind::Mod:
      return "%";
    case ExprKind::Min:
      return "min";
    case ExprKind::Max:
      return "max";
    case ExprKind::Shl:
      return "<<";
    case ExprKind::Shr:
      return ">>";
    case ExprKind::Lt:
      return "<";
    case ExprKind::Le:
      return "<=";
    case ExprKind::Gt:
      return ">";
    case ExprKind::Ge:
      return ">=";
    case ExprKind::Eq:
      return "==";
    case ExprKind::Ne:
      return "!=";
    case ExprKind::And:
      return "&&";
    case ExprKind::Or:
      return "||";
    default:
      return "?";
  }
}

}  // namespace loupe::tir
