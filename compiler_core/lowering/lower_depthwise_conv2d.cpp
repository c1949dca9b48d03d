// DEPTHWISE_CONV_2D -> TIR. Output rows and columns are split into runs of
// windows that clip the same filter taps (conv_lowering_common.h), one loop
// nest per pair of runs with constant bounds and no bounds checks. Per
// output pixel a local accumulator holds all output channels: it starts from
// each channel's starting value, every filter tap adds a whole row of
// channels (contiguous in the NHWC input and in the [1, H, W, C] filter, so
// the C compiler vectorises it), and the channels are requantised at the
// end. The int8 input zero point is folded into the starting values of the
// interior; clipped windows add it per tap as the reference does. Float
// accumulates each channel's taps in filter order from 0.0f and adds the
// bias last, as the reference does.
#include <cstdint>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

namespace {

struct DepthwiseDims {
  int batches = 0, inHeight = 0, inWidth = 0, inDepth = 0;
  int filterHeight = 0, filterWidth = 0;
  int outHeight = 0, outWidth = 0, outChannels = 0, depthMultiplier = 1;
  int strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
};

DepthwiseDims depthwiseDims(const ir::Tensor& input, const ir::Tensor& filter,
                            const ir::Tensor& output, const ir::DepthwiseConv2DAttrs& attrs) {
  DepthwiseDims d;
  d.batches = input.shape[0];
  d.inHeight = input.shape[1];
  d.inWidth = input.shape[2];
  d.inDepth = input.shape[3];
  d.filterHeight = filter.shape[1];
  d.filterWidth = filter.shape[2];
  d.outHeight = output.shape[1];
  d.outWidth = output.shape[2];
  d.outChannels = output.shape[3];
  d.depthMultiplier = attrs.depthMultiplier;
  d.strideH = attrs.strideH;
  d.strideW = attrs.strideW;
  d.dilationH = attrs.dilationH;
  d.dilationW = attrs.dilationW;
  return d;
}

// Sum of each output channel's filter taps (int8 filters only).
std::vector<std::int64_t> filterSums(const ir::Tensor& filter, const DepthwiseDims& d) {
  std::vector<std::int64_t> sums(static_cast<std::size_t>(d.outChannels), 0);
  if (filter.dtype != ir::DType::Int8) return sums;
  const std::vector<std::int8_t> values = tensorValues<std::int8_t>(filter);
  for (std::size_t k = 0; k < values.size(); ++k) sums[k % sums.size()] += values[k];
  return sums;
}

}  // namespace

PrimFunc lowerDepthwiseConv2D(const ir::Graph& graph, const ir::Operator& op,
                              const std::string& functionName) {
  const auto& attrs = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!filter.isConstant) fail(op, "the filter must be constant to compile to C");
  if (bias != nullptr && !bias->isConstant) fail(op, "the bias must be constant to compile to C");
  const DepthwiseDims d = depthwiseDims(input, filter, output, attrs);
  const WindowPadding pad =
      windowPadding(attrs, d.inHeight, d.inWidth, d.filterHeight, d.filterWidth);
  const auto rowRuns =
      windowRuns(d.outHeight, d.inHeight, d.filterHeight, d.strideH, d.dilationH, pad.top);
  const auto colRuns =
      windowRuns(d.outWidth, d.inWidth, d.filterWidth, d.strideW, d.dilationW, pad.left);

  FunctionBuilder fb(graph, op, functionName);
  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w = fb.constant(filter, "filter");
  // TFLite Micro's 16x8 depthwise kernel always requantises the 64-bit sum.
  ConvArithmetic arithmetic(fb, input, bias, output, filter.quantization.scales, attrs.activation,
                            filterSums(filter, d), std::int64_t{d.filterHeight} * d.filterWidth,
                            input.dtype == ir::DType::Int16);

  const Var b = loopVar("b"), y = loopVar("y"), x = loopVar("x");
  const Var oc = loopVar("oc"), ky = loopVar("ky"), kx = loopVar("kx"), c = loopVar("c"),
            m = loopVar("m");
  // Output channel m of input channel c is c * depthMultiplier + m.
  const Expr channel = refVar(c) * d.depthMultiplier + refVar(m);
  const Expr inRow =
      refVar(b) * d.inHeight + refVar(y) * d.strideH - pad.top + refVar(ky) * d.dilationH;
  const Expr inCol = refVar(x) * d.strideW - pad.left + refVar(kx) * d.dilationW;
  const Expr outPixel = (refVar(b) * d.outHeight + refVar(y)) * d.outWidth + refVar(x);

  auto nest = [&](const WindowRun& rows, const WindowRun& cols) {
    const bool complete = rows.complete && cols.complete;
    const Buffer acc = fb.local("acc", arithmetic.accType(), d.outChannels);
    const Expr inputValue = load(in, (inRow * d.inWidth + inCol) * d.inDepth + refVar(c));
    const Expr filterValue =
        load(w, (refVar(ky) * d.filterWidth + refVar(kx)) * d.outChannels + channel);
    const Stmt accumulate = forLoop(
        ky, rows.tapBegin, rows.tapEnd - rows.tapBegin,
        forLoop(kx, cols.tapBegin, cols.tapEnd - cols.tapBegin,
                forLoop(c, 0, d.inDepth,
                        forLoop(m, 0, d.depthMultiplier,
                                store(acc, channel,
                                      load(acc, channel) +
                                          arithmetic.product(filterValue, inputValue, complete)),
                                ForKind::Unrolled))));
    const Stmt body = allocate(
        acc, seq({forLoop(oc, 0, d.outChannels,
                          store(acc, refVar(oc), arithmetic.initial(refVar(oc), complete))),
                  accumulate,
                  forLoop(oc, 0, d.outChannels,
                          store(out, outPixel * d.outChannels + refVar(oc),
                                arithmetic.finish(load(acc, refVar(oc)), refVar(oc))))}));
    return forLoop(x, cols.outBegin, cols.outCount, body);
  };

  std::vector<Stmt> rowNests;
  for (const WindowRun& rows : rowRuns) {
    std::vector<Stmt> colNests;
    for (const WindowRun& cols : colRuns) colNests.push_back(nest(rows, cols));
    rowNests.push_back(forLoop(y, rows.outBegin, rows.outCount, seq(std::move(colNests))));
  }
  return fb.finish(forLoop(b, 0, d.batches, seq(std::move(rowNests))));
}

}  // namespace loupe::lowering
