// TIR expressions: immutable trees shared by pointer, as in TVM. An Expr is a
// value computed from immediates, loop variables, buffer loads and calls; its
// type is fixed when it is built, and the builders below refuse mixed-type
// arithmetic so the generated C never relies on implicit conversions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/constant_bytes.h"
#include "tir/scalar_type.h"

namespace loupe::tir {

struct VarNode {
  std::string name;
  ScalarType type = ScalarType::Int32;
};
// A variable is identified by its node, not its name.
using Var = std::shared_ptr<const VarNode>;
Var makeVar(std::string name, ScalarType type = ScalarType::Int32);

// Where a buffer's storage comes from.
enum class BufferScope {
  Param,     // a pointer the caller passes (tensors of the graph)
  Constant,  // compile-time data emitted with the function (weights, requantisation tables)
  Local,     // operator scratch declared by an Allocate statement
};

struct BufferNode {
  std::string name;
  ScalarType type = ScalarType::Int8;
  std::vector<std::int64_t> shape;  // for people; accesses use flat indices
  BufferScope scope = BufferScope::Param;
  bool written = false;  // params: an output the function stores to
  // Constants: little-endian element bytes, shared with the graph tensor they
  // come from when the function uses its weights as they are.
  ir::ConstantBytes data;
  // Constants and locals: the multiple of bytes the array's address must be
  // (an Ethos-U payload, flash and scratch: 16, as Arm's driver demands); 0:
  // the element type's own.
  std::int64_t alignment = 0;
  std::int64_t elementCount() const;
};
using Buffer = std::shared_ptr<const BufferNode>;

enum class ExprKind {
  IntImm,
  FloatImm,
  VarRef,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Min,
  Max,
  Shl,
  Shr,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  Not,
  Select,
  Cast,
  Load,
  Call,
  AddressOf,       // the address of a buffer's first element (for call_extern arguments)
  ResourceHandle,  // the function's resource_handle: the device it runs on (rfcs/000)
};

enum class CallKind {
  Intrinsic,  // one of the shared fixed-point helpers (tir/intrinsics.h)
  Extern,     // call_extern: a C function the target provides
};

struct ExprNode;
class Expr {
 public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}
  // An int32 immediate, so lowering code can write `x * 4 + 1`.
  Expr(int value);  // NOLINT(google-explicit-constructor)

  const ExprNode* operator->() const { return node_.get(); }
  const ExprNode& operator*() const { return *node_; }
  const ExprNode* get() const { return node_.get(); }
  explicit operator bool() const { return node_ != nullptr; }
  ScalarType type() const;

 private:
  std::shared_ptr<const ExprNode> node_;
};

struct ExprNode {
  ExprKind kind = ExprKind::IntImm;
  ScalarType type = ScalarType::Int32;
  std::int64_t intValue = 0;
  double floatValue = 0.0;
  Var var;             // VarRef
  Buffer buffer;       // Load
  std::string callee;  // Call
  CallKind callKind = CallKind::Intrinsic;
  std::vector<Expr> operands;  // binary: 2, Not/Cast: 1, Select: 3, Load: index, Call: arguments
};

Expr intImm(std::int64_t value, ScalarType type = ScalarType::Int32);
Expr floatImm(double value);
Expr refVar(const Var& var);
Expr binary(ExprKind kind, Expr a, Expr b);
Expr cast(ScalarType type, Expr value);
Expr minExpr(Expr a, Expr b);
Expr maxExpr(Expr a, Expr b);
Expr select(Expr condition, Expr ifTrue, Expr ifFalse);
Expr load(const Buffer& buffer, Expr index);
Expr callIntrinsic(const std::string& name, ScalarType type, std::vector<Expr> args);
Expr callExtern(const std::string& name, ScalarType type, std::vector<Expr> args);
// T.address_of(buffer[0]): a pointer argument for a call_extern.
Expr addressOf(const Buffer& buffer);
// T.address_of(buffer[index]): a pointer into the buffer (kernel arguments).
Expr addressOf(const Buffer& buffer, Expr index);
// The resource handle the AOT code passes every operator function: its
// device (a tvm_device_t*), or NULL on the CPU.
Expr resourceHandle();
Expr logicalAnd(Expr a, Expr b);
Expr logicalOr(Expr a, Expr b);
Expr logicalNot(Expr a);
Expr eq(Expr a, Expr b);
Expr ne(Expr a, Expr b);

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
Expr operator/(Expr a, Expr b);
Expr operator%(Expr a, Expr b);
Expr operator<<(Expr a, Expr b);
Expr operator>>(Expr a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);

bool isIntImm(const Expr& e);
bool isIntImm(const Expr& e, std::int64_t value);
bool isComparison(ExprKind kind);
// "+", "min", "<", ... as the printers spell the operator.
std::string_view binaryOperatorSymbol(ExprKind kind);

}  // namespace loupe::tir
