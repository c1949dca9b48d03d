#include "lowering/elementwise_unary.h"

#include <limits>
#include <optional>
#include <vector>

#include "reference/kernel_checks.h"
#include "tir/intrinsics.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// The outputs for all 256 values of an 8-bit input, indexed by the input's
// bits read as uint8, so an int8 input indexes the table through a cast
// rather than an added offset. nullopt when a float output cannot be written
// as a C literal (inf or NaN).
template <typename T>
std::optional<std::vector<T>> tableValues(ScalarType inputType, const UnaryElementFunction& f) {
  std::vector<T> values(256);
  for (int bits = 0; bits < 256; ++bits) {
    const std::int32_t x = inputType == ScalarType::Int8 ? static_cast<std::int8_t>(bits) : bits;
    const double value = f.atCompileTime(x);
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(value)) return std::nullopt;
      values[static_cast<std::size_t>(bits)] = static_cast<T>(value);
    } else {
      // The helpers clamp to the output type; the cast is the one generated
      // C would apply to the helper's int32 result.
      values[static_cast<std::size_t>(bits)] = static_cast<T>(static_cast<std::int64_t>(value));
    }
  }
  return values;
}

template <typename T>
Buffer tableOf(FunctionBuilder& fb, const std::string& name, ScalarType inputType,
               ScalarType outputType, const UnaryElementFunction& f) {
  auto values = tableValues<T>(inputType, f);
  if (!values) return nullptr;
  return fb.constant(name, outputType, *values);
}

// The table of an 8-bit input, or null when the outputs need a per-element
// call (a float result without a C literal).
Buffer outputTable(FunctionBuilder& fb, const ir::Operator& op, ScalarType inputType,
                   ScalarType outputType, const UnaryElementFunction& f) {
  const std::string name = "output_table";
  switch (outputType) {
    case ScalarType::Int8:
      return tableOf<std::int8_t>(fb, name, inputType, outputType, f);
    case ScalarType::UInt8:
      return tableOf<std::uint8_t>(fb, name, inputType, outputType, f);
    case ScalarType::Int16:
      return tableOf<std::int16_t>(fb, name, inputType, outputType, f);
    case ScalarType::Int32:
      return tableOf<std::int32_t>(fb, name, inputType, outputType, f);
    case ScalarType::Float32:
      return tableOf<float>(fb, name, inputType, outputType, f);
    default:
      fail(op, "no C lowering for " + std::string(scalarTypeName(outputType)) + " output");
  }
}

}  // namespace

PrimFunc lowerElementwiseUnary(const ir::Graph& graph, const ir::Operator& op,
                               const std::string& functionName,
                               const UnaryElementFunction& element) {
  const std::int64_t count = graph.input(op, 0)->elementCount();
  if (count > std::numeric_limits<std::int32_t>::max()) {
    fail(op, std::to_string(count) + " elements do not fit the generated int32_t loop counter");
  }
  FunctionBuilder fb(graph, op, functionName);
  Buffer in = fb.input(op.inputs[0], "input");
  Buffer out = fb.param(op.outputs[0], "output", true);
  // No elements, no loop; and no table, which C would reject as unused.
  if (count == 0) return fb.finish(seq({}));
  Buffer table;
  if (in->type == ScalarType::Int8 || in->type == ScalarType::UInt8) {
    table = outputTable(fb, op, in->type, out->type, element);
  }
  Var i = loopVar("i");
  const Expr x = load(in, refVar(i));
  Expr value;
  if (table) {
    value = load(table, in->type == ScalarType::Int8 ? cast(ScalarType::UInt8, x) : x);
  } else if (element.perElement) {
    value = cast(out->type, element.perElement(x));
  } else {
    failTensorType(op, "input", *graph.input(op, 0));
  }
  return fb.finish(forLoop(i, 0, static_cast<int>(count), store(out, refVar(i), value)));
}

reference::IntRange integerTypeRange(const ir::Operator& op, std::string_view role,
                                     const ir::Tensor& tensor) {
  switch (tensor.dtype) {
    case ir::DType::Int8:
      return {std::numeric_limits<std::int8_t>::min(), std::numeric_limits<std::int8_t>::max()};
    case ir::DType::UInt8:
      return {std::numeric_limits<std::uint8_t>::min(), std::numeric_limits<std::uint8_t>::max()};
    case ir::DType::Int16:
      return {std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max()};
    case ir::DType::Int32:
      return {std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    default:
      failTensorType(op, role, tensor);
  }
}

void failTensorType(const ir::Operator& op, std::string_view role, const ir::Tensor& tensor) {
  fail(op, "no C lowering for " + reference::describeTensor(role, tensor));
}

float finiteParameter(const ir::Operator& op, std::string_view name, float value) {
  if (!std::isfinite(value)) {
    fail(op, std::string(name) + " " + std::to_string(value) +
                 " is not finite; generated C cannot write it as a constant");
  }
  return value;
}

namespace detail {

void checkIntrinsic(std::string_view name, ScalarType result, int arity) {
  const auto intrinsic = findIntrinsic(name);
  if (!intrinsic || intrinsic->result != result || intrinsic->arity != arity) {
    throw std::logic_error("intrinsic " + std::string(name) +
                           " does not match its helper's signature");
  }
}

}  // namespace detail

}  // namespace loupe::lowering
