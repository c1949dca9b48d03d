// CAST: each element converted as C converts it (static_cast in TFLite
// Micro): floats to integers truncate toward zero, bools read as 0 and 1,
// and a bool output is whether the element is non-zero. Integer and bool
// tensors carry no quantisation here: CAST converts stored values.
#include <array>
#include <cstring>
#include <span>
#include <type_traits>

#include "lowering/elementwise_unary.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/slab_copy.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

ir::Attributes readCastOptions(const tflite::Operator& op, const std::string&) {
  ir::OptionAttrs a;
  if (const auto* o = optionsAs<tflite::CastOptions>(op)) {
    a.set("in_data_type", static_cast<std::int64_t>(o->in_data_type()))
        .set("out_data_type", static_cast<std::int64_t>(o->out_data_type()));
  }
  return a;
}

std::optional<InferredOutput> castShape(const ir::Graph& graph, const ir::Operator& op) {
  return sameShapeAsInput(graph, op, {});  // the output type is the model's choice
}

std::optional<std::string> checkCast(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  const ir::Tensor& output = graph.output(op, 0);
  for (const ir::Tensor* tensor : {input, &output}) {
    if (!hasCBufferType(tensor->dtype)) {
      return std::string(tensor == input ? "input" : "output") + " dtype " +
             reference::describeDtype(tensor->dtype) +
             " is not supported (expected float32, int8, uint8, int16, int32, int64 or bool)";
    }
  }
  if (output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's shape";
  }
  return std::nullopt;
}

// Element i of a buffer of `dtype`, as the type C would read it.
template <typename To>
To convertElement(ir::DType dtype, const std::uint8_t* data, std::int64_t i) {
  auto at = [&]<typename From>(From) {
    From value;
    std::memcpy(&value, data + i * static_cast<std::int64_t>(sizeof(From)), sizeof(From));
    if constexpr (std::is_same_v<To, bool>) {
      return static_cast<To>(value != From{0});
    } else {
      return static_cast<To>(value);
    }
  };
  switch (dtype) {
    case ir::DType::Float32:
      return at(float{});
    case ir::DType::Int8:
      return at(std::int8_t{});
    case ir::DType::Int16:
      return at(std::int16_t{});
    case ir::DType::Int32:
      return at(std::int32_t{});
    case ir::DType::Int64:
      return at(std::int64_t{});
    default:  // uint8 and bool: one byte
      return at(std::uint8_t{});
  }
}

template <typename To>
void castAll(const ir::Tensor& input, std::span<const std::uint8_t> in,
             std::span<std::uint8_t> out) {
  const std::int64_t count = input.elementCount();
  for (std::int64_t i = 0; i < count; ++i) {
    const To value = convertElement<To>(input.dtype, in.data(), i);
    if constexpr (std::is_same_v<To, bool>) {
      out[static_cast<std::size_t>(i)] = value ? 1 : 0;
    } else {
      std::memcpy(out.data() + i * static_cast<std::int64_t>(sizeof(To)), &value, sizeof(To));
    }
  }
}

void evalCast(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const ir::Tensor& input = *graph.input(op, 0);
  const auto in = store.bytes(op.inputs[0]);
  const auto out = store.mutableBytes(op.outputs[0]);
  switch (graph.output(op, 0).dtype) {
    case ir::DType::Float32:
      return castAll<float>(input, in, out);
    case ir::DType::Int8:
      return castAll<std::int8_t>(input, in, out);
    case ir::DType::UInt8:
      return castAll<std::uint8_t>(input, in, out);
    case ir::DType::Int16:
      return castAll<std::int16_t>(input, in, out);
    case ir::DType::Int32:
      return castAll<std::int32_t>(input, in, out);
    case ir::DType::Int64:
      return castAll<std::int64_t>(input, in, out);
    default:
      return castAll<bool>(input, in, out);
  }
}

tir::PrimFunc lowerCast(const ir::Graph& graph, const ir::Operator& op,
                        const std::string& functionName) {
  const ir::DType from = graph.input(op, 0)->dtype;
  const ir::DType to = graph.output(op, 0).dtype;
  lowering::UnaryElementFunction f;
  // 8-bit inputs: a table of what the reference converts each value to.
  f.atCompileTime = [from, to](std::int32_t x) -> double {
    // Room for an element of any type, though only 8-bit ones come here:
    // the compiler cannot see that `from` is one.
    const std::array<std::uint8_t, sizeof(std::int64_t)> bytes{static_cast<std::uint8_t>(x)};
    switch (to) {
      case ir::DType::Float32:
        return convertElement<float>(from, bytes.data(), 0);
      case ir::DType::Bool:
        return convertElement<bool>(from, bytes.data(), 0) ? 1 : 0;
      default:
        return static_cast<double>(convertElement<std::int64_t>(from, bytes.data(), 0));
    }
  };
  f.perElement = [from, to](const tir::Expr& x) {
    if (to == ir::DType::Bool) {
      const tir::Expr zero = from == ir::DType::Float32 ? tir::floatImm(0.0) : tir::intImm(0);
      return tir::select(tir::ne(x, zero), tir::intImm(1), tir::intImm(0));
    }
    return tir::cast(to == ir::DType::UInt8 ? tir::ScalarType::UInt8 : tir::fromDType(to), x);
  };
  return lowering::lowerElementwiseUnary(graph, op, functionName, f);
}

const reference::Kernel kCastKernel{ir::OpType::Cast, checkCast, evalCast};

}  // namespace

extern const OperatorDefinition kCastDefinition{
    .type = ir::OpType::Cast,
    .dtypes = "float32, int8, uint8, int16, int32, int64, bool, in any pair",
    .import = {.optionsType = optionsTypeOf<tflite::CastOptions>(),
               .maxVersion = 6,
               .readOptions = readCastOptions},
    .shape = castShape,
    .kernel = &kCastKernel,
    .lower = lowerCast,
};

}  // namespace loupe::ops
