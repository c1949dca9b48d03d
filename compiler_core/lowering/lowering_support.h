// What the per-operator lowerings share: buffers for graph tensors and for
// compile-time constants, C-safe names, and the error a lowering raises when
// an operator (or one of its dtype combinations) has no C implementation.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "tir/prim_func.h"

namespace loupe::lowering {

class LoweringError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "#3 CONV_2D: <what>" — the location every lowering diagnostic starts with.
[[noreturn]] void fail(const ir::Operator& op, const std::string& what);

// A C identifier made from a tensor or model name: [A-Za-z0-9_], not
// starting with a digit, never empty.
std::string sanitizeName(std::string_view name);

// The element type of a tensor's buffer. A TFLite bool tensor holds one byte
// per element, while TIR's Bool is the int a comparison yields, so tensors of
// bools are byte buffers (the operators that take them only move them).
tir::ScalarType bufferType(ir::DType dtype);

// Builds one PrimFunc: parameters for graph tensors in call order and
// constants emitted beside the function.
class FunctionBuilder {
 public:
  FunctionBuilder(const ir::Graph& graph, const ir::Operator& op, std::string functionName);
  // A function of several operators (an NPU region): no "operator" attribute.
  FunctionBuilder(const ir::Graph& graph, std::string functionName);

  // The buffer of graph tensor `tensorIndex` as a parameter named `role`.
  tir::Buffer param(int tensorIndex, const std::string& role, bool written);
  // A constant from a graph tensor's bytes; `alignment`: see tir::BufferNode.
  tir::Buffer constant(const ir::Tensor& tensor, const std::string& role,
                       std::int64_t alignment = 0);
  // A tensor the function reads: a constant when the graph holds its data
  // (constants have no storage at run time), else a read-only parameter.
  tir::Buffer input(int tensorIndex, const std::string& role);
  // A constant from values computed at compile time.
  template <typename T>
  tir::Buffer constant(const std::string& role, tir::ScalarType type,
                       const std::vector<T>& values) {
    std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return addConstant(role, type, {static_cast<std::int64_t>(values.size())}, std::move(bytes));
  }
  tir::Buffer local(const std::string& name, tir::ScalarType type, std::int64_t elements,
                    std::int64_t alignment = 0);

  tir::PrimFunc finish(tir::Stmt body);

 private:
  tir::Buffer addConstant(const std::string& role, tir::ScalarType type,
                          std::vector<std::int64_t> shape, ir::ConstantBytes bytes,
                          std::int64_t alignment = 0);

  const ir::Graph& graph_;
  tir::PrimFunc func_;
};

// A loop variable.
inline tir::Var loopVar(const std::string& name) {
  return tir::makeVar(name);
}

// Constant data of a graph tensor as a typed vector (little-endian host).
template <typename T>
std::vector<T> tensorValues(const ir::Tensor& tensor) {
  std::vector<T> values(tensor.data.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), tensor.data.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace loupe::lowering
