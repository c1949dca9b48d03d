#include "tir/tir_printer.h"

#include <cmath>
#include <sstream>

#include "ir/graph_printer.h"
#include "tir/lift_scratch.h"

namespace loupe::tir {

namespace {

std::string shapeTuple(const std::vector<std::int64_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

std::string quoted(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

void printStmtTo(std::ostringstream& out, const Stmt& stmt, int indent);

void line(std::ostringstream& out, int indent, const std::string& text) {
  out << std::string(static_cast<std::size_t>(indent) * 4, ' ') << text << '\n';
}

}  // namespace

std::string printExpr(const Expr& e) {
  switch (e->kind) {
    case ExprKind::IntImm:
      if (e->type == ScalarType::Int32) return std::to_string(e->intValue);
      return "T." + std::string(scalarTypeName(e->type)) + "(" + std::to_string(e->intValue) + ")";
    case ExprKind::FloatImm:
      return "T.float32(" + ir::floatToString(static_cast<float>(e->floatValue)) + ")";
    case ExprKind::VarRef:
      return e->var->name;
    case ExprKind::Min:
    case ExprKind::Max:
      return "T." + std::string(binaryOperatorSymbol(e->kind)) + "(" + printExpr(e->operands[0]) +
             ", " + printExpr(e->operands[1]) + ")";
    case ExprKind::Not:
      return "not " + printExpr(e->operands[0]);
    case ExprKind::Select:
      return "T.Select(" + printExpr(e->operands[0]) + ", " + printExpr(e->operands[1]) + ", " +
             printExpr(e->operands[2]) + ")";
    case ExprKind::Cast:
      return "T.Cast(" + quoted(scalarTypeName(e->type)) + ", " + printExpr(e->operands[0]) + ")";
    case ExprKind::Load:
      return e->buffer->name + "[" + printExpr(e->operands[0]) + "]";
    case ExprKind::AddressOf:
      return "T.address_of(" + e->buffer->name + "[" +
             (e->operands.empty() ? std::string("0") : printExpr(e->operands[0])) + "])";
    case ExprKind::ResourceHandle:
      return "resource_handle";
    case ExprKind::Call: {
      std::string out = e->callKind == CallKind::Intrinsic ? "T.call_intrin(" : "T.call_extern(";
      out += quoted(scalarTypeName(e->type)) + ", " + quoted(e->callee);
      for (const Expr& arg : e->operands) out += ", " + printExpr(arg);
      return out + ")";
    }
    default: {
      // Binary operators: parenthesise nested binaries so no precedence rule
      // is needed to read them.
      auto operand = [](const Expr& x) {
        const bool nested = x->operands.size() == 2 && x->kind != ExprKind::Min &&
                            x->kind != ExprKind::Max && x->kind != ExprKind::Load &&
                            x->kind != ExprKind::Call;
        return nested ? "(" + printExpr(x) + ")" : printExpr(x);
      };
      std::string symbol(binaryOperatorSymbol(e->kind));
      if (e->kind == ExprKind::And) symbol = "and";
      if (e->kind == ExprKind::Or) symbol = "or";
      return operand(e->operands[0]) + " " + symbol + " " + operand(e->operands[1]);
    }
  }
}

namespace {

void printStmtTo(std::ostringstream& out, const Stmt& s, int indent) {
  switch (s->kind) {
    case StmtKind::Seq:
      for (const Stmt& child : s->seq) printStmtTo(out, child, indent);
      break;
    case StmtKind::For: {
      std::string range;
      const bool fromZero = isIntImm(s->min, 0);
      const std::string bounds = fromZero
                                     ? printExpr(s->extent)
                                     : printExpr(s->min) + ", " + printExpr(s->min + s->extent);
      if (s->forKind == ForKind::Unrolled) {
        range = "T.unroll(" + bounds + ")";
      } else if (s->unrollHint > 1) {
        range = "T.serial(" + bounds +
                ", annotations={\"pragma_unroll\": " + std::to_string(s->unrollHint) + "})";
      } else {
        range = "range(" + bounds + ")";
      }
      line(out, indent, "for " + s->var->name + " in " + range + ":");
      printStmtTo(out, s->body, indent + 1);
      break;
    }
    case StmtKind::Let:
      line(out, indent,
           s->var->name + ": T." + std::string(scalarTypeName(s->var->type)) + " = " +
               printExpr(s->value));
      printStmtTo(out, s->body, indent);
      break;
    case StmtKind::IfThenElse:
      line(out, indent, "if " + printExpr(s->condition) + ":");
      printStmtTo(out, s->body, indent + 1);
      if (s->otherwise) {
        line(out, indent, "else:");
        printStmtTo(out, s->otherwise, indent + 1);
      }
      break;
    case StmtKind::While:
      line(out, indent, "while " + printExpr(s->condition) + ":");
      printStmtTo(out, s->body, indent + 1);
      break;
    case StmtKind::Store:
      line(out, indent, s->buffer->name + "[" + printExpr(s->index) + "] = " + printExpr(s->value));
      break;
    case StmtKind::Allocate:
      if (s->scratchOffset >= 0) {
        // In the workspace scratch the caller passes, at a fixed offset.
        const std::int64_t end = s->scratchOffset + bufferBytes(s->buffer);
        line(out, indent,
             s->buffer->name + " = T.allocate(" + shapeTuple(s->buffer->shape) + ", " +
                 quoted(scalarTypeName(s->buffer->type)) + ", \"workspace\")  # " + kScratchParam +
                 "[" + std::to_string(s->scratchOffset) + ":" + std::to_string(end) + "]");
      } else {
        line(out, indent,
             s->buffer->name + " = T.allocate(" + shapeTuple(s->buffer->shape) + ", " +
                 quoted(scalarTypeName(s->buffer->type)) + ", \"local\")");
      }
      printStmtTo(out, s->body, indent);
      break;
    case StmtKind::Evaluate:
      line(out, indent,
           s->checkReturn ? "T.evaluate(T.tvm_check_return(0, -1, " + printExpr(s->value) + "))"
                          : "T.evaluate(" + printExpr(s->value) + ")");
      break;
  }
}

}  // namespace

std::string printStmt(const Stmt& stmt, int indent) {
  std::ostringstream out;
  printStmtTo(out, stmt, indent);
  return out.str();
}

std::string printPrimFunc(const PrimFunc& func) {
  std::ostringstream out;
  out << "@T.prim_func\n";
  out << "def " << func.name << "(";
  for (std::size_t i = 0; i < func.params.size(); ++i) {
    const Buffer& b = func.params[i];
    if (i > 0) out << ", ";
    out << b->name << ": T.Buffer(" << shapeTuple(b->shape) << ", "
        << quoted(scalarTypeName(b->type)) << ")";
  }
  if (func.scratchBytes > 0) {
    out << ", " << kScratchParam << ": T.Buffer((" << func.scratchBytes
        << ",), \"uint8\", scope=\"workspace\")";
  }
  out << "):\n";
  if (!func.attrs.empty()) {
    std::string attrs;
    for (const auto& [key, value] : func.attrs) {
      if (!attrs.empty()) attrs += ", ";
      attrs += quoted(key) + ": " + quoted(value);
    }
    line(out, 1, "T.func_attr({" + attrs + "})");
  }
  for (const Buffer& c : func.constants) {
    line(out, 1,
         c->name + " = T.allocate_const(..., " + quoted(scalarTypeName(c->type)) + ", " +
             shapeTuple(c->shape) + ")  # " +
             ir::groupDigits(static_cast<std::int64_t>(c->data.size())) + " bytes");
  }
  out << printStmt(func.body, 1);
  return out.str();
}

}  // namespace loupe::tir
