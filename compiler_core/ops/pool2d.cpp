// AVERAGE_POOL_2D and MAX_POOL_2D: a window slid over each channel of an NHWC
// input; padded positions are left out of the window. The options, shape
// rule and cost of every window pool (ops/pool_window.h) are defined here.
#include "lowering/lowering_rule.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/pool_window.h"
#include "reference/quantized_params.h"

namespace loupe::reference {
extern const Kernel kAveragePool2DKernel;
extern const Kernel kMaxPool2DKernel;
}  // namespace loupe::reference

namespace loupe::ops {

ir::Attributes readPool2DOptions(const tflite::Operator& op, const std::string& where) {
  const auto* o = optionsAs<tflite::Pool2DOptions>(op);
  ir::Pool2DAttrs a;
  a.padding = readPadding(o->padding(), where);
  a.strideW = readPositive(o->stride_w(), "stride_w", where);
  a.strideH = readPositive(o->stride_h(), "stride_h", where);
  a.filterW = readPositive(o->filter_width(), "filter_width", where);
  a.filterH = readPositive(o->filter_height(), "filter_height", where);
  a.activation = readActivation(o->fused_activation_function(), where);
  return a;
}

std::optional<InferredOutput> pool2DShape(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return shapeProblem("an input");
  if (input->shape.size() != 4) return shapeProblem("a 4-D input, found " + tensorText(*input));
  const auto* attrs = std::get_if<ir::Pool2DAttrs>(&op.attributes);
  if (attrs == nullptr) return shapeProblem("pooling attributes");
  const auto g = reference::windowGeometry(*attrs, input->shape[1], input->shape[2]);
  return windowedOutput(*input, g.outHeight, g.outWidth, input->shape[3]);
}

// One per window element and output element.
std::int64_t pool2DMacs(const ir::Graph& graph, const ir::Operator& op) {
  const auto& a = std::get<ir::Pool2DAttrs>(op.attributes);
  return graph.output(op, 0).elementCount() * a.filterH * a.filterW;
}

namespace {

constexpr ImportRule kPoolImport{.optionsType = optionsTypeOf<tflite::Pool2DOptions>(),
                                 .optionsRequired = true,
                                 .maxVersion = 3,
                                 .readOptions = readPool2DOptions};

}  // namespace

extern const OperatorDefinition kAveragePool2DDefinition{
    .type = ir::OpType::AveragePool2D,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = kPoolImport,
    .shape = pool2DShape,
    .kernel = &reference::kAveragePool2DKernel,
    .lower = lowering::lowerAveragePool2D,
    .macs = pool2DMacs,
};

extern const OperatorDefinition kMaxPool2DDefinition{
    .type = ir::OpType::MaxPool2D,
    .dtypes = "float32, int8, int16 (input and output same type)",
    .import = kPoolImport,
    .shape = pool2DShape,
    .kernel = &reference::kMaxPool2DKernel,
    .lower = lowering::lowerMaxPool2D,
    .macs = pool2DMacs,
};

}  // namespace loupe::ops
