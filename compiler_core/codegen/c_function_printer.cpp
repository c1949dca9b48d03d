#include "codegen/c_function_printer.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>

#include "ir/graph_printer.h"
#include "tir/intrinsics.h"

namespace loupe::codegen {

using namespace tir;

namespace {

std::string intLiteral(std::int64_t value, ScalarType type) {
  if (type == ScalarType::Int64) {
    if (value == INT64_MIN) return "(-INT64_C(9223372036854775807) - 1)";
    return "INT64_C(" + std::to_string(value) + ")";
  }
  // INT32_MIN has no literal of type int: write it as an expression.
  if (value == INT32_MIN) return "(-2147483647 - 1)";
  return std::to_string(value);
}

std::string floatLiteral(double value) {
  // C99 has no literal for infinity or NaN; <math.h> has constant macros.
  if (std::isnan(value)) return "NAN";
  if (std::isinf(value)) return value > 0 ? "INFINITY" : "(-INFINITY)";
  // ir::floatToString: %.9g in the "C" locale, never a decimal comma.
  std::string s = ir::floatToString(static_cast<float>(value));
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s + "f";
}

std::string paren(const std::string& s) {
  return "(" + s + ")";
}

}  // namespace

std::string printCExpr(const Expr& e) {
  switch (e->kind) {
    case ExprKind::IntImm:
      return intLiteral(e->intValue, e->type);
    case ExprKind::FloatImm:
      return floatLiteral(e->floatValue);
    case ExprKind::VarRef:
      return e->var->name;
    case ExprKind::Min:
    case ExprKind::Max: {
      const std::string a = printCExpr(e->operands[0]), b = printCExpr(e->operands[1]);
      const bool isMin = e->kind == ExprKind::Min;
      if (e->type == ScalarType::Int32) {
        return std::string(isMin ? "loupe_min_i32(" : "loupe_max_i32(") + a + ", " + b + ")";
      }
      return paren(paren(a) + (isMin ? " < " : " > ") + paren(b) + " ? " + paren(a) + " : " +
                   paren(b));
    }
    case ExprKind::Not:
      return "!" + paren(printCExpr(e->operands[0]));
    case ExprKind::Select:
      return paren(printCExpr(e->operands[0]) + " ? " + printCExpr(e->operands[1]) + " : " +
                   printCExpr(e->operands[2]));
    case ExprKind::Cast:
      return paren(std::string(cTypeName(e->type))) + paren(printCExpr(e->operands[0]));
    case ExprKind::Load:
      return e->buffer->name + "[" + printCExpr(e->operands[0]) + "]";
    case ExprKind::AddressOf:
      if (e->operands.empty() || isIntImm(e->operands[0], 0)) return e->buffer->name;
      return "&" + e->buffer->name + "[" + printCExpr(e->operands[0]) + "]";
    case ExprKind::ResourceHandle:
      return "resource_handle";
    case ExprKind::Call: {
      std::string name = e->callee;
      if (e->callKind == CallKind::Intrinsic) {
        const auto intrinsic = findIntrinsic(e->callee);
        if (!intrinsic) throw std::invalid_argument("unknown TIR intrinsic " + e->callee);
        name = std::string(intrinsic->cFunction);
      }
      std::string out = name + "(";
      for (std::size_t i = 0; i < e->operands.size(); ++i) {
        if (i > 0) out += ", ";
        out += printCExpr(e->operands[i]);
      }
      return out + ")";
    }
    default: {
      auto operand = [](const Expr& x) {
        const std::string text = printCExpr(x);
        const bool atomic = x->kind == ExprKind::IntImm || x->kind == ExprKind::VarRef ||
                            x->kind == ExprKind::Load || x->kind == ExprKind::Call ||
                            x->kind == ExprKind::FloatImm;
        return atomic && !(x->kind == ExprKind::IntImm && x->intValue < 0) ? text : paren(text);
      };
      return operand(e->operands[0]) + " " + std::string(binaryOperatorSymbol(e->kind)) + " " +
             operand(e->operands[1]);
    }
  }
}

namespace {

void collectIntrinsicHeaders(const Expr& e, std::set<std::string>& headers) {
  if (!e) return;
  if (e->kind == ExprKind::Call && e->callKind == CallKind::Intrinsic) {
    if (auto intrinsic = findIntrinsic(e->callee)) headers.insert(std::string(intrinsic->header));
  }
  if (e->kind == ExprKind::Min || e->kind == ExprKind::Max) headers.insert("loupe/fixed_point.h");
  for (const Expr& operand : e->operands) collectIntrinsicHeaders(operand, headers);
}

void collectHeaders(const Stmt& s, std::set<std::string>& headers) {
  if (!s) return;
  for (const Expr* e : {&s->min, &s->extent, &s->value, &s->condition, &s->index}) {
    collectIntrinsicHeaders(*e, headers);
  }
  for (const Stmt& child : s->seq) collectHeaders(child, headers);
  collectHeaders(s->body, headers);
  collectHeaders(s->otherwise, headers);
}

void collectBuffers(const Expr& e, std::set<const BufferNode*>& used) {
  if (!e) return;
  if (e->kind == ExprKind::Load || e->kind == ExprKind::AddressOf) used.insert(e->buffer.get());
  for (const Expr& operand : e->operands) collectBuffers(operand, used);
}

// Buffers the statement loads from or stores to.
void collectBuffers(const Stmt& s, std::set<const BufferNode*>& used) {
  if (!s) return;
  if (s->kind == StmtKind::Store) used.insert(s->buffer.get());
  for (const Expr* e : {&s->min, &s->extent, &s->value, &s->condition, &s->index}) {
    collectBuffers(*e, used);
  }
  for (const Stmt& child : s->seq) collectBuffers(child, used);
  collectBuffers(s->body, used);
  collectBuffers(s->otherwise, used);
}

class StmtPrinter {
 public:
  explicit StmtPrinter(std::ostringstream& out) : out_(out) {}

  void print(const Stmt& s, int indent) {
    switch (s->kind) {
      case StmtKind::Seq:
        for (const Stmt& child : s->seq) print(child, indent);
        break;
      case StmtKind::For: {
        const std::string var = s->var->name;
        const std::string end =
            isIntImm(s->min, 0) ? printCExpr(s->extent) : printCExpr(s->min + s->extent);
        if (s->unrollHint > 1) {
          // A schedule's unroll factor; compilers other than GCC and Clang
          // would warn about the pragma, so only those see it.
          line(0, "#if defined(__GNUC__)");
          line(0, "#pragma GCC unroll " + std::to_string(s->unrollHint));
          line(0, "#endif");
        }
        line(indent, "for (int32_t " + var + " = " + printCExpr(s->min) + "; " + var + " < " + end +
                         "; ++" + var + ") {");
        print(s->body, indent + 1);
        line(indent, "}");
        break;
      }
      case StmtKind::Let:
        line(indent, "{");
        line(indent + 1, "const " + std::string(cTypeName(s->var->type)) + " " + s->var->name +
                             " = " + printCExpr(s->value) + ";");
        print(s->body, indent + 1);
        line(indent, "}");
        break;
      case StmtKind::IfThenElse:
        line(indent, "if (" + printCExpr(s->condition) + ") {");
        print(s->body, indent + 1);
        if (s->otherwise) {
          line(indent, "} else {");
          print(s->otherwise, indent + 1);
        }
        line(indent, "}");
        break;
      case StmtKind::While:
        line(indent, "while (" + printCExpr(s->condition) + ") {");
        print(s->body, indent + 1);
        line(indent, "}");
        break;
      case StmtKind::Store:
        line(indent,
             s->buffer->name + "[" + printCExpr(s->index) + "] = " + printCExpr(s->value) + ";");
        break;
      case StmtKind::Allocate:
        line(indent, "{");
        if (s->scratchOffset >= 0) {
          const std::string type(cTypeName(s->buffer->type));
          line(indent + 1, type + "* restrict " + s->buffer->name + " = (" + type + "*)(" +
                               kScratchParam + " + " + std::to_string(s->scratchOffset) + ");");
        } else {
          line(indent + 1, std::string(cTypeName(s->buffer->type)) + " " + s->buffer->name + "[" +
                               std::to_string(s->buffer->elementCount()) + "]" +
                               (s->buffer->alignment > 1
                                    ? " LOUPE_ALIGNED(" + std::to_string(s->buffer->alignment) + ")"
                                    : std::string()) +
                               ";");
        }
        print(s->body, indent + 1);
        line(indent, "}");
        break;
      case StmtKind::Evaluate:
        if (s->checkReturn) {
          line(indent, "{");
          line(indent + 1, "const int32_t status = " + printCExpr(s->value) + ";");
          line(indent + 1, "if (status != 0) return status;");
          line(indent, "}");
        } else {
          line(indent, "(void)" + printCExpr(s->value) + ";");
        }
        break;
    }
  }

 private:
  void line(int indent, const std::string& text) {
    out_ << std::string(static_cast<std::size_t>(indent) * 2, ' ') << text << '\n';
  }
  std::ostringstream& out_;
};

// intLiteral's text appended without making a string for each value: a large
// constant has millions of them (and a streamed one is printed twice).
void appendIntLiteral(std::string& text, std::int64_t value, ScalarType type) {
  if (type == ScalarType::Int64 || value == INT32_MIN) {
    text += intLiteral(value, type);
    return;
  }
  char digits[24];
  const char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  text.append(digits, static_cast<std::size_t>(end - digits));
}

// Values printed between two hand-overs of the text to a sink (about 100 KB
// of C for int8 values).
constexpr std::size_t kValuesPerPiece = 16 * 1024;

// Passes what `out` holds to the sink and empties it; does nothing without a
// sink (the text is then wanted whole).
void handOver(std::ostringstream& out, const CTextSink* sink) {
  if (sink == nullptr) return;
  const std::string text = out.str();
  if (!text.empty()) (*sink)(text);
  out.str({});
}

// The values are put together in a string, a piece at a time, rather than
// each written to the stream: the stream's per-call cost was most of the time
// a large model's C took to print.
template <typename T>
void printValues(std::ostringstream& out, const std::vector<std::uint8_t>& bytes, ScalarType type,
                 const CTextSink* sink) {
  const std::size_t count = bytes.size() / sizeof(T);
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    text += (i % 16 == 0 ? "\n  " : " ");
    if constexpr (std::is_same_v<T, float>) {
      text += floatLiteral(value);
    } else {
      appendIntLiteral(text, static_cast<std::int64_t>(value), type);
    }
    if (i + 1 < count) text += ',';
    if ((i + 1) % kValuesPerPiece == 0) {
      out << text;
      text.clear();
      handOver(out, sink);
    }
  }
  out << text;
}

void printValues(std::ostringstream& out, const std::vector<std::uint8_t>& bytes, ScalarType type,
                 const std::string& name, const CTextSink* sink = nullptr) {
  switch (type) {
    case ScalarType::Int8:
      return printValues<std::int8_t>(out, bytes, type, sink);
    case ScalarType::UInt8:
    case ScalarType::Bool:
      return printValues<std::uint8_t>(out, bytes, type, sink);
    case ScalarType::Int16:
      return printValues<std::int16_t>(out, bytes, type, sink);
    case ScalarType::Int32:
      return printValues<std::int32_t>(out, bytes, type, sink);
    case ScalarType::Int64:
      return printValues<std::int64_t>(out, bytes, type, sink);
    case ScalarType::Float32:
      return printValues<float>(out, bytes, type, sink);
    case ScalarType::Void:
      break;
  }
  throw std::invalid_argument("constant " + name + " has no element type");
}

void printConstant(std::ostringstream& out, const Buffer& c, const std::string& section,
                   const CTextSink* sink) {
  out << "static const " << cTypeName(c->type) << " " << c->name << "["
      << std::max<std::int64_t>(c->elementCount(), 1) << "]";
  if (!section.empty()) out << " LOUPE_CONSTANT_SECTION(\"" << section << "\")";
  if (c->alignment > 1) out << " LOUPE_ALIGNED(" << c->alignment << ")";
  out << " = {";
  printValues(out, c->data, c->type, c->name, sink);
  if (c->data.empty()) out << "0";
  out << "\n};\n";
}

// printCSource's text, whole (`sink` null) or in pieces.
void writeCSource(std::ostringstream& out, const PrimFunc& func, const CTextSink* sink) {
  std::set<std::string> headers(func.externHeaders.begin(), func.externHeaders.end());
  collectHeaders(func.body, headers);
  out << "/* Generated by Loupe from TIR: " << func.name;
  if (auto it = func.attrs.find("operator"); it != func.attrs.end())
    out << " (" << it->second << ")";
  // A function of a whole region (an NPU region) names its operators.
  if (auto it = func.attrs.find("operators"); it != func.attrs.end())
    out << " (" << it->second << ")";
  // A function of patch-based execution says which strips it computes.
  if (auto it = func.attrs.find("patch"); it != func.attrs.end())
    out << ", patch-based execution: " << it->second;
  out << ". */\n";
  out << "#include <math.h>\n#include <stdint.h>\n";
  for (const std::string& h : headers) out << "#include \"" << h << "\"\n";
  out << '\n';
  // Constants the memory plan puts in another memory than the code's go
  // into its section (memory_region.h), which the board's linker script places.
  const auto sectionOf = [&func](std::size_t c) {
    return c < func.constantSections.size() ? func.constantSections[c] : std::string();
  };
  bool sections = false;
  for (std::size_t c = 0; c < func.constants.size(); ++c) sections |= !sectionOf(c).empty();
  if (sections) {
    out << "#if defined(__GNUC__)\n#define LOUPE_CONSTANT_SECTION(name) "
           "__attribute__((section(name)))\n#else\n#define LOUPE_CONSTANT_SECTION(name)\n"
           "#endif\n\n";
  }
  // Arrays whose address the hardware takes only on a multiple of bytes.
  std::set<const BufferNode*> buffers;
  collectBuffers(func.body, buffers);
  const bool aligned = std::any_of(func.constants.begin(), func.constants.end(),
                                   [](const Buffer& c) { return c->alignment > 1; }) ||
                       std::any_of(buffers.begin(), buffers.end(),
                                   [](const BufferNode* b) { return b->alignment > 1; });
  if (aligned) {
    out << "#ifndef LOUPE_ALIGNED\n#if defined(__GNUC__)\n#define LOUPE_ALIGNED(n) "
           "__attribute__((aligned(n)))\n#else\n#define LOUPE_ALIGNED(n)\n#endif\n#endif\n\n";
  }
  for (std::size_t c = 0; c < func.constants.size(); ++c) {
    printConstant(out, func.constants[c], sectionOf(c), sink);
  }
  if (!func.constants.empty()) out << '\n';
  out << cPrototype(func) << ";\n";
  out << cPrototype(func) << " {\n";
  out << "  (void)resource_handle;\n";
  // A parameter the body never touches (all its loops vanished, e.g. for an
  // empty tensor or a pad value with nothing to pad) must not warn.
  std::set<const BufferNode*> used;
  collectBuffers(func.body, used);
  for (const Buffer& p : func.params) {
    if (!used.contains(p.get())) out << "  (void)" << p->name << ";\n";
  }
  StmtPrinter(out).print(func.body, 1);
  out << "  return 0;\n}\n";
  handOver(out, sink);
}

}  // namespace

std::string cInitializerValues(const std::vector<std::uint8_t>& bytes, ScalarType type) {
  std::ostringstream out;
  printValues(out, bytes, type, "initializer");
  return out.str();
}

std::string cPrototype(const PrimFunc& func) {
  std::string out = "int32_t " + func.name + "(";
  // An operator writing over its input (memory/in_place.h) gets pointers that
  // alias, which `restrict` would forbid.
  const bool mayAlias = func.attrs.contains("in_place") || func.attrs.contains("overlaps") ||
                        func.attrs.contains("params_may_alias");
  for (const Buffer& p : func.params) {
    out += std::string(p->written ? "" : "const ") + std::string(cTypeName(p->type)) +
           (mayAlias ? "* " : "* restrict ") + p->name + ", ";
  }
  if (func.scratchBytes > 0) out += "uint8_t* restrict " + std::string(kScratchParam) + ", ";
  return out + "void* resource_handle)";
}

std::string printCSource(const PrimFunc& func) {
  std::ostringstream out;
  writeCSource(out, func, nullptr);
  return out.str();
}

void printCSource(const PrimFunc& func, const CTextSink& sink) {
  std::ostringstream out;
  writeCSource(out, func, &sink);
}

}  // namespace loupe::codegen
