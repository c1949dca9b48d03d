#include "lowering/lowering_support.h"

#include <cctype>

namespace loupe::lowering {

tir::ScalarType bufferType(ir::DType dtype) {
  return dtype == ir::DType::Bool ? tir::ScalarType::UInt8 : tir::fromDType(dtype);
}

void fail(const ir::Operator& op, const std::string& what) {
  throw LoweringError("#" + std::to_string(op.index) + " " + op.typeName() + ": " + what);
}

std::string sanitizeName(std::string_view name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += std::isalnum(u) != 0 && u < 128 ? c : '_';
  }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front())) != 0) out = "t_" + out;
  return out;
}

FunctionBuilder::FunctionBuilder(const ir::Graph& graph, const ir::Operator& op,
                                 std::string functionName)
    : graph_(graph) {
  func_.name = std::move(functionName);
  func_.attrs["operator"] = "#" + std::to_string(op.index) + " " + op.typeName();
}

FunctionBuilder::FunctionBuilder(const ir::Graph& graph, std::string functionName) : graph_(graph) {
  func_.name = std::move(functionName);
}

tir::Buffer FunctionBuilder::param(int tensorIndex, const std::string& role, bool written) {
  const ir::Tensor& tensor = graph_.tensor(tensorIndex);
  auto b = std::make_shared<tir::BufferNode>();
  b->name = role;
  b->type = bufferType(tensor.dtype);
  b->shape.assign(tensor.shape.begin(), tensor.shape.end());
  b->scope = tir::BufferScope::Param;
  b->written = written;
  func_.params.push_back(b);
  func_.paramTensors.push_back(tensorIndex);
  return b;
}

tir::Buffer FunctionBuilder::constant(const ir::Tensor& tensor, const std::string& role,
                                      std::int64_t alignment) {
  // The tensor's own bytes, shared rather than copied: a large model's weights
  // are then held once however many functions and graph copies refer to them.
  return addConstant(role, bufferType(tensor.dtype),
                     std::vector<std::int64_t>(tensor.shape.begin(), tensor.shape.end()),
                     tensor.data, alignment);
}

tir::Buffer FunctionBuilder::input(int tensorIndex, const std::string& role) {
  const ir::Tensor& tensor = graph_.tensor(tensorIndex);
  return tensor.isConstant ? constant(tensor, role) : param(tensorIndex, role, false);
}

tir::Buffer FunctionBuilder::addConstant(const std::string& role, tir::ScalarType type,
                                         std::vector<std::int64_t> shape, ir::ConstantBytes bytes,
                                         std::int64_t alignment) {
  auto b = std::make_shared<tir::BufferNode>();
  b->name = role;
  b->alignment = alignment;
  b->type = type;
  b->shape = std::move(shape);
  b->scope = tir::BufferScope::Constant;
  b->data = std::move(bytes);
  func_.constants.push_back(b);
  return b;
}

tir::Buffer FunctionBuilder::local(const std::string& name, tir::ScalarType type,
                                   std::int64_t elements, std::int64_t alignment) {
  auto b = std::make_shared<tir::BufferNode>();
  b->name = name;
  b->alignment = alignment;
  b->type = type;
  b->shape = {elements};
  b->scope = tir::BufferScope::Local;
  return b;
}

tir::PrimFunc FunctionBuilder::finish(tir::Stmt body) {
  func_.body = std::move(body);
  return std::move(func_);
}

}  // namespace loupe::lowering
