// ZEROS_LIKE: a tensor of the input's shape and type holding zeros. The
// input's values are never read. TFLite Micro runs float32, int8, int32 and
// int64 and writes the stored value 0 whatever the quantisation (an int8
// output is 0, not its zero point), and so do we.
#include <algorithm>

#include "ir/graph_printer.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "reference/kernel_checks.h"

namespace loupe::ops {

namespace {

bool isSupported(ir::DType dtype) {
  return dtype == ir::DType::Float32 || dtype == ir::DType::Int8 || dtype == ir::DType::Int32 ||
         dtype == ir::DType::Int64;
}

std::optional<std::string> checkZerosLike(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  const ir::Tensor& output = graph.output(op, 0);
  if (!isSupported(input->dtype)) {
    return "input dtype " + reference::describeDtype(input->dtype) +
           " is not supported (expected float32, int8, int32 or int64, as TFLite Micro)";
  }
  if (output.dtype != input->dtype || output.shape != input->shape) {
    return "output " + tensorText(output) + " must have the input's type and shape";
  }
  return std::nullopt;
}

// Every supported type's zero is all zero bytes (float +0.0 included).
void evalZerosLike(const ir::Graph&, const ir::Operator& op, reference::TensorStore& store) {
  const auto out = store.mutableBytes(op.outputs[0]);
  std::fill(out.begin(), out.end(), std::uint8_t{0});
}

// for i: out[i] = 0. Only the output is a parameter: nothing reads the input.
tir::PrimFunc lowerZerosLike(const ir::Graph& graph, const ir::Operator& op,
                             const std::string& functionName) {
  const ir::Tensor& output = graph.output(op, 0);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Expr zero =
      output.dtype == ir::DType::Float32 ? tir::floatImm(0.0) : tir::intImm(0, out->type);
  const tir::Var i = tir::makeVar("i");
  return fb.finish(tir::forLoop(i, tir::intImm(0), tir::intImm(output.elementCount()),
                                tir::store(out, tir::refVar(i), zero)));
}

const reference::Kernel kZerosLikeKernel{ir::OpType::ZerosLike, checkZerosLike, evalZerosLike};

}  // namespace

extern const OperatorDefinition kZerosLikeDefinition{
    .type = ir::OpType::ZerosLike,
    .dtypes = "float32, int8, int32, int64",
    .import = {.optionsType = optionsTypeOf<tflite::ZerosLikeOptions>(), .maxVersion = 1},
    .shape = sameAsInput,
    .kernel = &kZerosLikeKernel,
    .lower = lowerZerosLike,
};

}  // namespace loupe::ops
