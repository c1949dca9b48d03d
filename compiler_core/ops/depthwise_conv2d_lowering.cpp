// DEPTHWISE_CONV_2D -> TIR. Output rows and columns are split into runs of
// windows that clip the same filter taps (conv_lowering_common.h), one loop
// nest per pair of runs with constant bounds and no bounds checks. Per
// output pixel a local accumulator row holds all output channels: one loop
// over the channels (contiguous in the NHWC input and in the [1, H, W, C]
// filter, so the C compiler vectorises it) computes each channel's starting
// value plus the products of all its taps in one expression, then a second
// loop requantises the row. The int8 input zero point is folded into the
// starting values of the interior; clipped windows add it per tap as the
// reference does. Float sums each channel's taps in filter order from 0.0f
// and adds the bias last, as the reference does. A clipped window of more
// than kTapsPerStatement taps walks its taps in a loop instead: large filters
// (micro_speech's 10x8) have dozens of border runs, and their taps unrolled
// made one 800 KB C function that took the C compiler over 20 s per board,
// for the border pixels only.
#include <cstdint>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Filter taps summed per statement (3x3 and 4x4 filters in one).
constexpr int kTapsPerStatement = 16;

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
                            depthwiseFilterSums(filter, d.outChannels),
                            std::int64_t{d.filterHeight} * d.filterWidth,
                            input.dtype == ir::DType::Int16);

  const Var b = loopVar("b"), y = loopVar("y"), x = loopVar("x");
  const Var oc = loopVar("oc"), c = loopVar("c"), m = loopVar("m");
  // Output channel m of input channel c is c * depthMultiplier + m.
  const Expr channel = refVar(c) * d.depthMultiplier + refVar(m);
  const Expr outPixel = (refVar(b) * d.outHeight + refVar(y)) * d.outWidth + refVar(x);
  // The input under filter tap (ky, kx), given as its offsets from the
  // window's corner: ky * dilationH - pad.top and kx * dilationW - pad.left.
  auto inputValue = [&](const Expr& rowOffset, const Expr& colOffset) {
    const Expr row = refVar(b) * d.inHeight + refVar(y) * d.strideH + rowOffset;
    const Expr col = refVar(x) * d.strideW + colOffset;
    return load(in, (row * d.inWidth + col) * d.inDepth + refVar(c));
  };
  auto filterValue = [&](const Expr& tap) { return load(w, tap * d.outChannels + channel); };
  // Every channel of one pixel: `perChannel` for each (c, m), m unrolled.
  auto overChannels = [&](Stmt perChannel) {
    return forLoop(c, 0, d.inDepth,
                   forLoop(m, 0, d.depthMultiplier, std::move(perChannel), ForKind::Unrolled));
  };
  auto requantizeRow = [&](const Buffer& acc) {
    return forLoop(oc, 0, d.outChannels,
                   store(out, outPixel * d.outChannels + refVar(oc),
                         arithmetic.finish(load(acc, refVar(oc)), refVar(oc))));
  };

  // A clipped window with many taps: the accumulator row starts from the
  // bias, then each tap in filter order adds its product to every channel.
  auto loopedTaps = [&](const WindowRun& rows, const WindowRun& cols) {
    const Buffer acc = fb.local("acc", arithmetic.accType(), d.outChannels);
    const Var ky = loopVar("ky"), kx = loopVar("kx");
    const Stmt taps = forLoop(
        ky, rows.tapBegin, rows.tapEnd - rows.tapBegin,
        forLoop(kx, cols.tapBegin, cols.tapEnd - cols.tapBegin,
                overChannels(store(
                    acc, channel,
                    load(acc, channel) +
                        arithmetic.product(filterValue(refVar(ky) * d.filterWidth + refVar(kx)),
                                           inputValue(refVar(ky) * d.dilationH - pad.top,
                                                      refVar(kx) * d.dilationW - pad.left),
                                           true)))));
    const Stmt body =
        allocate(acc, seq({overChannels(store(acc, channel, arithmetic.initial(channel, false))),
                           taps, requantizeRow(acc)}));
    return forLoop(x, cols.outBegin, cols.outCount, body);
  };

  auto nest = [&](const WindowRun& rows, const WindowRun& cols) {
    const bool complete = rows.complete && cols.complete;
    const int taps = (rows.tapEnd - rows.tapBegin) * (cols.tapEnd - cols.tapBegin);
    if (!complete && taps > kTapsPerStatement) return loopedTaps(rows, cols);
    const Buffer acc = fb.local("acc", arithmetic.accType(), d.outChannels);
    // Each channel's taps summed in filter order in one expression (a few
    // statements for large filters): the channel loop is the only loop, and
    // the accumulator is stored once per statement, not once per tap.
    std::vector<Stmt> sums;
    Expr total = arithmetic.initial(channel, complete);
    int terms = 0;
    for (int ky = rows.tapBegin; ky < rows.tapEnd; ++ky) {
      for (int kx = cols.tapBegin; kx < cols.tapEnd; ++kx) {
        total = total + arithmetic.product(
                            filterValue(ky * d.filterWidth + kx),
                            inputValue(ky * d.dilationH - pad.top, kx * d.dilationW - pad.left),
                            !complete);
        if (++terms == kTapsPerStatement) {
          sums.push_back(store(acc, channel, total));
          total = load(acc, channel);
          terms = 0;
        }
      }
    }
    if (terms > 0 || sums.empty()) sums.push_back(store(acc, channel, total));
    const Stmt body = allocate(acc, seq({overChannels(seq(std::move(sums))), requantizeRow(acc)}));
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
