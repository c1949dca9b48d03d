// Hybrid CONV_2D: float32 activations, int8 filter (a model converted with
// dynamic-range quantisation). TFLite Micro refuses it; TFLite runs it, and
// so does Loupe, value for value as TFLite's optimized kernels (conv.cc's
// EvalHybrid and EvalHybridPerChannel over optimized_ops' HybridConv and
// HybridConvPerChannel, what its interpreter runs by default):
//  - a filter with one scale (or several scales all equal): each batch of the
//    input (all of its H x W x C values) is quantised symmetrically, its scale
//    multiplied by the filter's; each output is 0 + dot * that scale, then
//    + bias, then min(max(x, lo), hi) of the fused activation's range;
//  - a filter with per-channel scales: each batch is quantised
//    asymmetrically; each output is (dot less the filter row's sum times the
//    zero point) * (channel scale * batch scale) + bias, then min(x, hi) and
//    max(x, lo).
// dot sums filter x quantised input over the window, padding contributing
// nothing (TFLite's im2col pads with the zero point the sum takes off).
// Refused: grouped filters (TFLite runs them through its reference kernel,
// another float order), uint8 filters, activations other than RELU,
// RELU_N1_TO_1 and RELU6 (TFLite's activation range leaves TANH out
// silently), and a missing bias.
#include "ops/conv2d_hybrid.h"

#include <algorithm>
#include <limits>

#include "lowering/lowering_support.h"
#include "ops/hybrid_quantization.h"
#include "ops/shape_rule.h"
#include "reference/quantized_params.h"

namespace loupe::ops {

namespace {

struct ConvShape {
  int batches = 0, height = 0, width = 0, depth = 0;
  int channels = 0, filterHeight = 0, filterWidth = 0;
  int outHeight = 0, outWidth = 0, padHeight = 0, padWidth = 0;
  std::int64_t batchSize() const { return std::int64_t{height} * width * depth; }
  std::int64_t filterRow() const { return std::int64_t{filterHeight} * filterWidth * depth; }
};

ConvShape convShape(const ir::Graph& graph, const ir::Operator& op) {
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ir::Shape& in = graph.input(op, 0)->shape;
  const ir::Shape& filter = graph.input(op, 1)->shape;
  ConvShape s{in[0], in[1], in[2], in[3], filter[0], filter[1], filter[2]};
  const auto g = reference::windowGeometry(attrs, s.height, s.width, s.filterHeight, s.filterWidth);
  s.outHeight = g.outHeight;
  s.outWidth = g.outWidth;
  s.padHeight = g.padHeight;
  s.padWidth = g.padWidth;
  return s;
}

// TFLite's CalculateActivationRange for float.
struct ActivationRange {
  float lo = std::numeric_limits<float>::lowest();
  float hi = std::numeric_limits<float>::max();
};

ActivationRange activationRange(ir::Activation activation) {
  switch (activation) {
    case ir::Activation::Relu:
      return {0.0f, std::numeric_limits<float>::max()};
    case ir::Activation::Relu6:
      return {0.0f, 6.0f};
    case ir::Activation::ReluN1To1:
      return {-1.0f, 1.0f};
    default:
      return {};
  }
}

// std::max(x, lo) is (x < lo) ? lo : x; std::min(x, hi) is (hi < x) ? hi : x.
float maxOf(float x, float lo) {
  return x < lo ? lo : x;
}
float minOf(float x, float hi) {
  return hi < x ? hi : x;
}
tir::Expr maxOf(const tir::Expr& x, float lo) {
  return tir::select(x < tir::floatImm(lo), tir::floatImm(lo), x);
}
tir::Expr minOf(const tir::Expr& x, float hi) {
  return tir::select(tir::floatImm(hi) < x, tir::floatImm(hi), x);
}

}  // namespace

bool isHybridConv2D(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* input = graph.input(op, 0);
  const ir::Tensor* filter = op.inputs.size() > 1 ? graph.input(op, 1) : nullptr;
  return input != nullptr && filter != nullptr && input->dtype == ir::DType::Float32 &&
         (filter->dtype == ir::DType::Int8 || filter->dtype == ir::DType::UInt8);
}

std::optional<std::string> checkHybridConv2D(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor& output = graph.output(op, 0);
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  if (auto problem = hybrid::checkWeights(filter)) return problem;
  if (input.shape.size() != 4 || filter.shape.size() != 4) {
    return "needs 4-D input and filter, found " + tensorText(input) + " and " + tensorText(filter);
  }
  if (filter.shape[3] != input.shape[3]) {
    return "a hybrid CONV_2D's filter depth must equal the input depth (TFLite runs grouped "
           "hybrid convolution through another kernel), found " +
           tensorText(filter) + " over " + tensorText(input);
  }
  const std::size_t scales = filter.quantization.scales.size();
  if (scales > 1 && (scales != static_cast<std::size_t>(filter.shape[0]) ||
                     filter.quantization.quantizedDimension != 0)) {
    return "per-channel hybrid filters need one scale per output channel along dimension 0, "
           "found " +
           tensorText(filter);
  }
  if (op.inputs.size() < 3 || graph.input(op, 2) == nullptr) {
    return "a hybrid CONV_2D needs its float32 bias, as TFLite's kernel";
  }
  const ir::Tensor& bias = *graph.input(op, 2);
  if (bias.dtype != ir::DType::Float32 || bias.elementCount() != filter.shape[0]) {
    return "a hybrid bias is float32 with one value per output channel, found " + tensorText(bias);
  }
  if (output.dtype != ir::DType::Float32) {
    return "a hybrid CONV_2D outputs float32, found " + tensorText(output);
  }
  return hybrid::checkActivation(attrs.activation, "CONV_2D");
}

void evalHybridConv2D(const ir::Graph& graph, const ir::Operator& op,
                      reference::TensorStore& store) {
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ConvShape s = convShape(graph, op);
  const bool perChannel = hybrid::hasChannelScales(filter);
  const ActivationRange range = activationRange(attrs.activation);
  const float* in = store.data<float>(op.inputs[0]);
  const auto* w = store.data<std::int8_t>(op.inputs[1]);
  const float* bias = store.data<float>(op.inputs[2]);
  float* out = store.mutableData<float>(op.outputs[0]);
  std::vector<std::int8_t> q(static_cast<std::size_t>(s.batchSize()));
  std::int64_t o = 0;
  for (int n = 0; n < s.batches; ++n) {
    const hybrid::RowQuantization row =
        hybrid::quantizeRow(in + n * s.batchSize(), s.batchSize(), perChannel, q.data());
    const float batchScale = perChannel ? row.scale : row.scale * filter.quantization.scales[0];
    for (int oy = 0; oy < s.outHeight; ++oy) {
      for (int ox = 0; ox < s.outWidth; ++ox) {
        for (int c = 0; c < s.channels; ++c, ++o) {
          std::int32_t acc = 0;
          for (int ky = 0; ky < s.filterHeight; ++ky) {
            const int iy = oy * attrs.strideH - s.padHeight + ky * attrs.dilationH;
            for (int kx = 0; kx < s.filterWidth; ++kx) {
              const int ix = ox * attrs.strideW - s.padWidth + kx * attrs.dilationW;
              if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) continue;
              const std::int8_t* x = q.data() + (std::int64_t{iy} * s.width + ix) * s.depth;
              const std::int8_t* f =
                  w + c * s.filterRow() + (std::int64_t{ky} * s.filterWidth + kx) * s.depth;
              for (int d = 0; d < s.depth; ++d) acc += f[d] * (x[d] - row.offset);
            }
          }
          if (perChannel) {
            const float v =
                static_cast<float>(acc) * (filter.quantization.scales[c] * row.scale) + bias[c];
            out[o] = maxOf(minOf(v, range.hi), range.lo);
          } else {
            const float v = (0.0f + static_cast<float>(acc) * batchScale) + bias[c];
            out[o] = minOf(maxOf(v, range.lo), range.hi);
          }
        }
      }
    }
  }
}

tir::PrimFunc lowerHybridConv2D(const ir::Graph& graph, const ir::Operator& op,
                                const std::string& functionName) {
  using namespace tir;
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor& biasTensor = *graph.input(op, 2);
  if (!filter.isConstant) lowering::fail(op, "the filter must be constant to compile to C");
  if (!biasTensor.isConstant) lowering::fail(op, "the bias must be constant to compile to C");
  const ConvShape s = convShape(graph, op);
  const bool perChannel = hybrid::hasChannelScales(filter);
  const ActivationRange range = activationRange(attrs.activation);

  lowering::FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w = fb.constant(filter, "filter");
  const Buffer bias = fb.constant(biasTensor, "bias");
  const Buffer channelScales =
      perChannel ? fb.constant("channel_scales", ScalarType::Float32, filter.quantization.scales)
                 : nullptr;
  const Buffer q = fb.local("quantized", ScalarType::Int8, s.batchSize());
  const Buffer lo = fb.local("batch_min", ScalarType::Float32, 1);
  const Buffer hi = fb.local("batch_max", ScalarType::Float32, 1);
  const Buffer acc = fb.local("acc", ScalarType::Int32, 1);
  const Buffer value = fb.local("value", ScalarType::Float32, 1);
  const Var n = lowering::loopVar("n"), oy = lowering::loopVar("oy"), ox = lowering::loopVar("ox"),
            c = lowering::loopVar("c"), ky = lowering::loopVar("ky"), kx = lowering::loopVar("kx"),
            d = lowering::loopVar("d");
  const Var scale = makeVar("scale", ScalarType::Float32);
  const Var offset = makeVar("offset", ScalarType::Int32);

  const Expr iy = refVar(oy) * attrs.strideH - s.padHeight + refVar(ky) * attrs.dilationH;
  const Expr ix = refVar(ox) * attrs.strideW - s.padWidth + refVar(kx) * attrs.dilationW;
  const Expr inside =
      logicalAnd(logicalAnd(iy >= 0, iy < s.height), logicalAnd(ix >= 0, ix < s.width));
  Expr x = cast(ScalarType::Int32, load(q, (iy * s.width + ix) * s.depth + refVar(d)));
  if (perChannel) x = x - refVar(offset);
  const Expr f = cast(ScalarType::Int32,
                      load(w, refVar(c) * s.filterRow() +
                                  (refVar(ky) * s.filterWidth + refVar(kx)) * s.depth + refVar(d)));
  Stmt window = forLoop(
      ky, 0, s.filterHeight,
      forLoop(kx, 0, s.filterWidth,
              ifThenElse(inside, forLoop(d, 0, s.depth, store(acc, 0, load(acc, 0) + f * x)))));
  const Expr total = cast(ScalarType::Float32, load(acc, 0));
  const Expr v = load(value, 0);
  Stmt result;
  if (perChannel) {
    result = seq(
        {store(value, 0,
               total * (load(channelScales, refVar(c)) * refVar(scale)) + load(bias, refVar(c))),
         store(value, 0, minOf(v, range.hi)), store(value, 0, maxOf(v, range.lo))});
  } else {
    const Expr batchScale = refVar(scale) * floatImm(filter.quantization.scales[0]);
    result = seq({store(value, 0, (floatImm(0.0) + total * batchScale) + load(bias, refVar(c))),
                  store(value, 0, maxOf(v, range.lo)), store(value, 0, minOf(v, range.hi))});
  }
  const Expr outAt =
      ((refVar(n) * s.outHeight + refVar(oy)) * s.outWidth + refVar(ox)) * s.channels + refVar(c);
  Stmt outputs =
      forLoop(oy, 0, s.outHeight,
              forLoop(ox, 0, s.outWidth,
                      forLoop(c, 0, s.channels,
                              seq({store(acc, 0, 0), window, result, store(out, outAt, v)}))));
  Stmt body = forLoop(n, 0, s.batches,
                      hybrid::quantizeRow(in, refVar(n) * s.batchSize(), s.batchSize(), q,
                                          perChannel, lo, hi, scale, offset, outputs));
  for (const Buffer& local : {q, lo, hi, acc, value}) body = allocate(local, body);
  return fb.finish(body);
}

}  // namespace loupe::ops
