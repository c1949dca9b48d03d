// MAXIMUM and MINIMUM: element-wise, with broadcasting, on the stored values
// (quantised inputs share the output's parameters, as TFLite requires), as
// TFLite Micro computes them: a > b ? a : b and a < b ? a : b, so a NaN in
// the first operand yields the second.
#include <cstring>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/broadcast_loops.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

bool isSupported(ir::DType dtype) {
  return dtype == ir::DType::Float32 || dtype == ir::DType::Int8 || dtype == ir::DType::Int16 ||
         dtype == ir::DType::Int32 || dtype == ir::DType::Int64;
}

std::optional<InferredOutput> broadcastShape(const ir::Graph& graph, const ir::Operator& op) {
  return broadcastOfInputs(graph, op);
}

std::optional<std::string> checkMaxMin(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* a = graph.input(op, 0);
  const ir::Tensor* b = graph.input(op, 1);
  if (a == nullptr || b == nullptr) return "needs two inputs";
  const ir::Tensor& output = graph.output(op, 0);
  if (!isSupported(a->dtype)) {
    return "input dtype " + reference::describeDtype(a->dtype) +
           " is not supported (expected float32, int8, int16, int32 or int64)";
  }
  if (b->dtype != a->dtype || output.dtype != a->dtype) {
    return "inputs and output must share one element type, found " + tensorText(*a) + ", " +
           tensorText(*b) + " and " + tensorText(output);
  }
  const auto shape = reference::broadcastShape(a->shape, b->shape);
  if (!shape || *shape != output.shape) {
    return "output " + tensorText(output) + " is not the broadcast of " + tensorText(*a) + " and " +
           tensorText(*b);
  }
  return std::nullopt;
}

template <typename T, bool kMaximum>
void evalTyped(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const T* a = store.data<T>(op.inputs[0]);
  const T* b = store.data<T>(op.inputs[1]);
  T* out = store.mutableData<T>(op.outputs[0]);
  reference::forEachBroadcastElement(graph.output(op, 0).shape, graph.tensor(op.inputs[0]).shape,
                                     graph.tensor(op.inputs[1]).shape,
                                     [&](std::int64_t o, std::int64_t i1, std::int64_t i2) {
                                       if constexpr (kMaximum) {
                                         out[o] = a[i1] > b[i2] ? a[i1] : b[i2];
                                       } else {
                                         out[o] = a[i1] < b[i2] ? a[i1] : b[i2];
                                       }
                                     });
}

template <bool kMaximum>
void evalMaxMin(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  switch (graph.tensor(op.inputs[0]).dtype) {
    case ir::DType::Float32:
      return evalTyped<float, kMaximum>(graph, op, store);
    case ir::DType::Int8:
      return evalTyped<std::int8_t, kMaximum>(graph, op, store);
    case ir::DType::Int16:
      return evalTyped<std::int16_t, kMaximum>(graph, op, store);
    case ir::DType::Int32:
      return evalTyped<std::int32_t, kMaximum>(graph, op, store);
    default:
      return evalTyped<std::int64_t, kMaximum>(graph, op, store);
  }
}

template <bool kMaximum>
tir::PrimFunc lowerMaxMin(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  return lowerBroadcastBinary(graph, op, functionName, [](const tir::Expr& x, const tir::Expr& y) {
    return tir::select(kMaximum ? x > y : x < y, x, y);
  });
}

const reference::Kernel kMaximumKernel{ir::OpType::Maximum, checkMaxMin, evalMaxMin<true>};
const reference::Kernel kMinimumKernel{ir::OpType::Minimum, checkMaxMin, evalMaxMin<false>};

constexpr ImportRule kImport{.minInputs = 2,
                             .maxInputs = 2,
                             .optionsType = optionsTypeOf<tflite::MaximumMinimumOptions>(),
                             .maxVersion = 4};

}  // namespace

extern const OperatorDefinition kMaximumDefinition{
    .type = ir::OpType::Maximum,
    .dtypes = "float32, int8, int16, int32, int64",
    .import = kImport,
    .shape = broadcastShape,
    .kernel = &kMaximumKernel,
    .lower = lowerMaxMin<true>,
    .macs = oneMacPerOutputElement,
};

extern const OperatorDefinition kMinimumDefinition{
    .type = ir::OpType::Minimum,
    .dtypes = "float32, int8, int16, int32, int64",
    .import = kImport,
    .shape = broadcastShape,
    .kernel = &kMinimumKernel,
    .lower = lowerMaxMin<false>,
    .macs = oneMacPerOutputElement,
};

}  // namespace loupe::ops
