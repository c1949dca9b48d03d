// L2_POOL_2D: the root mean square of each window slid over each channel of
// an NHWC float32 input, as TFLite Micro computes it (it has no quantised
// kernel): windows are clipped to the input, padded positions left out of
// the sum and the count; the squares are summed in float in window order,
// divided by the count, passed through sqrtf and the fused activation's
// clamp. The options are Pool2DOptions, read into the pools' Pool2DAttrs.
#include <algorithm>
#include <cstdint>

#include "loupe/float_math.h"
#include "loupe/fused_activation.h"
#include "lowering/lowering_support.h"
#include "ops/operator_definition.h"
#include "ops/options_reading.h"
#include "ops/pool_window.h"
#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

// The window of one output position along one dimension: input positions
// [begin, end), possibly empty (only with explicit padding).
struct Window {
  int begin = 0, end = 0;
};

Window windowAt(int out, int stride, int pad, int filter, int inSize) {
  const int origin = out * stride - pad;
  return {std::max(origin, 0), std::min(origin + filter, inSize)};
}

struct L2PoolGeometry {
  int batches = 0, inHeight = 0, inWidth = 0, depth = 0, outHeight = 0, outWidth = 0;
  int strideHeight = 1, strideWidth = 1, filterHeight = 1, filterWidth = 1;
  int padHeight = 0, padWidth = 0;
};

L2PoolGeometry geometryOf(const ir::Tensor& input, const ir::Tensor& output,
                          const ir::Pool2DAttrs& attrs) {
  L2PoolGeometry g;
  g.batches = input.shape[0];
  g.inHeight = input.shape[1];
  g.inWidth = input.shape[2];
  g.depth = input.shape[3];
  g.outHeight = output.shape[1];
  g.outWidth = output.shape[2];
  g.strideHeight = attrs.strideH;
  g.strideWidth = attrs.strideW;
  g.filterHeight = attrs.filterH;
  g.filterWidth = attrs.filterW;
  const auto window = reference::windowGeometry(attrs, g.inHeight, g.inWidth);
  g.padHeight = window.padHeight;
  g.padWidth = window.padWidth;
  return g;
}

std::optional<std::string> checkL2Pool(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = std::get_if<ir::Pool2DAttrs>(&op.attributes);
  if (attrs == nullptr) return "operator carries no pooling attributes";
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "needs an input";
  const ir::Tensor& output = graph.output(op, 0);
  if (input->dtype != ir::DType::Float32 || output.dtype != ir::DType::Float32) {
    return "input " + tensorText(*input) + " and output " + tensorText(output) +
           " must be float32 (TFLite Micro has no quantised L2_POOL_2D)";
  }
  if (input->shape.size() != 4 || output.shape.size() != 4) {
    return "input " + tensorText(*input) + " and output " + tensorText(output) + " must be 4-D";
  }
  if (attrs->strideH < 1 || attrs->strideW < 1 || attrs->filterH < 1 || attrs->filterW < 1) {
    return "filter size and strides must be at least 1 (filter " + std::to_string(attrs->filterH) +
           "x" + std::to_string(attrs->filterW) + ", stride " + std::to_string(attrs->strideH) +
           "x" + std::to_string(attrs->strideW) + ")";
  }
  if (auto problem = reference::unsupportedActivation(attrs->activation)) return problem;
  if (auto problem = reference::checkExplicitPadding(attrs->explicitPadding)) return problem;
  const auto g = reference::windowGeometry(*attrs, input->shape[1], input->shape[2]);
  const ir::Shape expected = {input->shape[0], g.outHeight, g.outWidth, input->shape[3]};
  if (output.shape != expected) {
    return "output " + tensorText(output) + " does not match the pooling window: expected " +
           ir::shapeToString(expected) + " with " + reference::describePadding(*attrs);
  }
  return std::nullopt;
}

void evalL2Pool(const ir::Graph& graph, const ir::Operator& op, reference::TensorStore& store) {
  const auto& attrs = std::get<ir::Pool2DAttrs>(op.attributes);
  const L2PoolGeometry g = geometryOf(*graph.input(op, 0), graph.output(op, 0), attrs);
  const reference::FloatRange range = reference::floatActivationRange(attrs.activation);
  const float* in = store.data<float>(op.inputs[0]);
  float* out = store.mutableData<float>(op.outputs[0]);
  std::int64_t o = 0;
  for (int b = 0; b < g.batches; ++b) {
    for (int oy = 0; oy < g.outHeight; ++oy) {
      const Window wy = windowAt(oy, g.strideHeight, g.padHeight, g.filterHeight, g.inHeight);
      for (int ox = 0; ox < g.outWidth; ++ox) {
        const Window wx = windowAt(ox, g.strideWidth, g.padWidth, g.filterWidth, g.inWidth);
        for (int c = 0; c < g.depth; ++c) {
          float sumOfSquares = 0.0f;
          int count = 0;
          for (int iy = wy.begin; iy < wy.end; ++iy) {
            for (int ix = wx.begin; ix < wx.end; ++ix) {
              const float v =
                  in[((static_cast<std::int64_t>(b) * g.inHeight + iy) * g.inWidth + ix) * g.depth +
                     c];
              sumOfSquares += v * v;
              ++count;
            }
          }
          out[o++] = loupe_clamp_f32(loupe_sqrtf(sumOfSquares / static_cast<float>(count)),
                                     range.min, range.max);
        }
      }
    }
  }
}

tir::PrimFunc lowerL2Pool(const ir::Graph& graph, const ir::Operator& op,
                          const std::string& functionName) {
  const auto& attrs = std::get<ir::Pool2DAttrs>(op.attributes);
  const L2PoolGeometry g = geometryOf(*graph.input(op, 0), graph.output(op, 0), attrs);
  const reference::FloatRange range = reference::floatActivationRange(attrs.activation);
  lowering::FunctionBuilder fb(graph, op, functionName);
  const tir::Buffer in = fb.input(op.inputs[0], "input");
  const tir::Buffer out = fb.param(op.outputs[0], "output", true);
  const tir::Buffer sum = fb.local("sum_of_squares", tir::ScalarType::Float32, 1);
  const tir::Var b = lowering::loopVar("b"), oy = lowering::loopVar("oy"),
                 ox = lowering::loopVar("ox"), c = lowering::loopVar("c"),
                 iy = lowering::loopVar("iy"), ix = lowering::loopVar("ix");
  // Clipped window bounds, per output row and column.
  const tir::Var yBegin = tir::makeVar("y_begin"), yEnd = tir::makeVar("y_end");
  const tir::Var xBegin = tir::makeVar("x_begin"), xEnd = tir::makeVar("x_end");
  const tir::Expr yOrigin = tir::refVar(oy) * g.strideHeight - g.padHeight;
  const tir::Expr xOrigin = tir::refVar(ox) * g.strideWidth - g.padWidth;
  const tir::Expr rows = tir::refVar(yEnd) - tir::refVar(yBegin);
  const tir::Expr columns = tir::refVar(xEnd) - tir::refVar(xBegin);
  // As the reference counts its taps: none along an empty dimension.
  const tir::Expr count = tir::maxExpr(rows, 0) * tir::maxExpr(columns, 0);
  const tir::Expr v = tir::load(
      in,
      ((tir::refVar(b) * g.inHeight + tir::refVar(iy)) * g.inWidth + tir::refVar(ix)) * g.depth +
          tir::refVar(c));
  const tir::Expr outIndex =
      ((tir::refVar(b) * g.outHeight + tir::refVar(oy)) * g.outWidth + tir::refVar(ox)) * g.depth +
      tir::refVar(c);
  const tir::Expr result = tir::callIntrinsic(
      "loupe.clamp_f32", tir::ScalarType::Float32,
      {tir::callIntrinsic("loupe.sqrtf", tir::ScalarType::Float32,
                          {tir::load(sum, 0) / tir::cast(tir::ScalarType::Float32, count)}),
       tir::floatImm(range.min), tir::floatImm(range.max)});
  const tir::Stmt element = tir::allocate(
      sum, tir::seq({tir::store(sum, 0, tir::floatImm(0.0)),
                     tir::forLoop(iy, tir::refVar(yBegin), rows,
                                  tir::forLoop(ix, tir::refVar(xBegin), columns,
                                               tir::store(sum, 0, tir::load(sum, 0) + v * v))),
                     tir::store(out, outIndex, result)}));
  const tir::Stmt column = tir::let(xBegin, tir::maxExpr(xOrigin, 0),
                                    tir::let(xEnd, tir::minExpr(xOrigin + g.filterWidth, g.inWidth),
                                             tir::forLoop(c, 0, g.depth, element)));
  const tir::Stmt row = tir::let(yBegin, tir::maxExpr(yOrigin, 0),
                                 tir::let(yEnd, tir::minExpr(yOrigin + g.filterHeight, g.inHeight),
                                          tir::forLoop(ox, 0, g.outWidth, column)));
  return fb.finish(tir::forLoop(b, 0, g.batches, tir::forLoop(oy, 0, g.outHeight, row)));
}

const reference::Kernel kL2Pool2DKernel{ir::OpType::L2Pool2D, checkL2Pool, evalL2Pool};

}  // namespace

extern const OperatorDefinition kL2Pool2DDefinition{
    .type = ir::OpType::L2Pool2D,
    .dtypes = "float32",
    .import = {.optionsType = optionsTypeOf<tflite::Pool2DOptions>(),
               .optionsRequired = true,
               .maxVersion = 1,
               .readOptions = readPool2DOptions},
    .shape = pool2DShape,
    .kernel = &kL2Pool2DKernel,
    .lower = lowerL2Pool,
    .macs = pool2DMacs,
};

}  // namespace loupe::ops
