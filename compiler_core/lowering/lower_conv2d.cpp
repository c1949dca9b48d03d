// CONV_2D -> TIR. The output rows and columns are split into runs whose
// windows clip the same filter taps (conv_lowering_common.h): one loop nest
// per pair of runs, every bound a constant, no bounds checks anywhere. Per
// output element the nest walks the window's filter rows; with no dilation
// along the width and no groups, a filter row's taps and input channels are
// contiguous in the input and in the filter, so the innermost loop is one
// span of (taps in the row) x (input channels) elements — or, when the
// filter is as wide as the input, of all its rows at once. The C compiler
// vectorises such loops. The input zero point of int8 is folded into each
// channel's starting value in the interior; clipped windows add it per tap,
// as the reference does. Float keeps the reference's order of operations:
// taps in filter order from 0.0f, bias last, clamp.
#include <cstdint>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

namespace {

struct ConvDims {
  int batches = 0, inHeight = 0, inWidth = 0, inDepth = 0;
  int outChannels = 0, filterHeight = 0, filterWidth = 0, filterDepth = 0;
  int outHeight = 0, outWidth = 0;
  int strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int groups = 1, filtersPerGroup = 0;
};

ConvDims convDims(const ir::Tensor& input, const ir::Tensor& filter, const ir::Tensor& output,
                  const ir::Conv2DAttrs& attrs) {
  ConvDims d;
  d.batches = input.shape[0];
  d.inHeight = input.shape[1];
  d.inWidth = input.shape[2];
  d.inDepth = input.shape[3];
  d.outChannels = filter.shape[0];
  d.filterHeight = filter.shape[1];
  d.filterWidth = filter.shape[2];
  d.filterDepth = filter.shape[3];
  d.outHeight = output.shape[1];
  d.outWidth = output.shape[2];
  d.strideH = attrs.strideH;
  d.strideW = attrs.strideW;
  d.dilationH = attrs.dilationH;
  d.dilationW = attrs.dilationW;
  d.groups = d.inDepth / d.filterDepth;
  d.filtersPerGroup = d.outChannels / d.groups;
  return d;
}

// Sum of each output channel's filter values (int8 filters only).
std::vector<std::int64_t> filterSums(const ir::Tensor& filter, const ConvDims& d) {
  std::vector<std::int64_t> sums(static_cast<std::size_t>(d.outChannels), 0);
  if (filter.dtype != ir::DType::Int8) return sums;
  const std::vector<std::int8_t> values = tensorValues<std::int8_t>(filter);
  const std::size_t perChannel = values.size() / sums.size();
  for (std::size_t i = 0; i < values.size(); ++i) sums[i / perChannel] += values[i];
  return sums;
}

}  // namespace

PrimFunc lowerConv2D(const ir::Graph& graph, const ir::Operator& op,
                     const std::string& functionName) {
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!filter.isConstant) fail(op, "the filter must be constant to compile to C");
  if (bias != nullptr && !bias->isConstant) fail(op, "the bias must be constant to compile to C");
  const ConvDims d = convDims(input, filter, output, attrs);
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
  const bool int64Requantization =
      input.dtype == ir::DType::Int16 && bias != nullptr && bias->dtype == ir::DType::Int64;
  ConvArithmetic arithmetic(
      fb, input, bias, output, filter.quantization.scales, attrs.activation, filterSums(filter, d),
      std::int64_t{d.filterHeight} * d.filterWidth * d.filterDepth, int64Requantization);

  const Var b = loopVar("b"), y = loopVar("y"), x = loopVar("x");
  const Var g = loopVar("g"), oc = loopVar("oc"), ky = loopVar("ky"), kx = loopVar("kx"),
            i = loopVar("i");
  const bool grouped = d.groups > 1;
  // Output channel oc of group g is channel g * filtersPerGroup + oc.
  const Expr channel = grouped ? refVar(g) * d.filtersPerGroup + refVar(oc) : refVar(oc);
  const Expr inRowOrigin = refVar(y) * d.strideH - pad.top;
  const Expr inColOrigin = refVar(x) * d.strideW - pad.left;
  const Expr inPixel = refVar(b) * d.inHeight;  // + input row, then * width + column

  auto nest = [&](const WindowRun& rows, const WindowRun& cols) {
    const bool complete = rows.complete && cols.complete;
    const Buffer acc = fb.local("acc", arithmetic.accType(), 1);
    auto accumulateOver = [&](const Expr& filterIndex, const Expr& inputIndex) {
      return store(
          acc, 0,
          load(acc, 0) + arithmetic.product(load(w, filterIndex), load(in, inputIndex), complete));
    };
    const int rowTaps = rows.tapEnd - rows.tapBegin;
    const int colTaps = cols.tapEnd - cols.tapBegin;
    Stmt accumulate;
    if (!grouped && d.dilationW == 1 && colTaps == d.filterWidth && d.filterWidth == d.inWidth &&
        d.dilationH == 1) {
      // The window's rows follow one another in the input as in the filter.
      const int span = rowTaps * d.filterWidth * d.inDepth;
      const Expr inStart =
          ((inPixel + inRowOrigin + rows.tapBegin) * d.inWidth + inColOrigin) * d.inDepth;
      const Expr filterStart =
          (channel * d.filterHeight + rows.tapBegin) * d.filterWidth * d.filterDepth;
      accumulate =
          forLoop(i, 0, span, accumulateOver(filterStart + refVar(i), inStart + refVar(i)));
    } else if (!grouped && d.dilationW == 1) {
      // One contiguous span per filter row: its taps times the input channels.
      const int span = colTaps * d.inDepth;
      const Expr inStart = ((inPixel + inRowOrigin + refVar(ky) * d.dilationH) * d.inWidth +
                            inColOrigin + cols.tapBegin) *
                           d.inDepth;
      const Expr filterStart =
          ((channel * d.filterHeight + refVar(ky)) * d.filterWidth + cols.tapBegin) * d.filterDepth;
      accumulate = forLoop(
          ky, rows.tapBegin, rowTaps,
          forLoop(i, 0, span, accumulateOver(filterStart + refVar(i), inStart + refVar(i))));
    } else {
      const Expr inIndex = ((inPixel + inRowOrigin + refVar(ky) * d.dilationH) * d.inWidth +
                            inColOrigin + refVar(kx) * d.dilationW) *
                               d.inDepth +
                           (grouped ? refVar(g) * d.filterDepth : Expr(0)) + refVar(i);
      const Expr filterIndex =
          ((channel * d.filterHeight + refVar(ky)) * d.filterWidth + refVar(kx)) * d.filterDepth +
          refVar(i);
      accumulate =
          forLoop(ky, rows.tapBegin, rowTaps,
                  forLoop(kx, cols.tapBegin, colTaps,
                          forLoop(i, 0, d.filterDepth, accumulateOver(filterIndex, inIndex))));
    }
    const Expr outIndex =
        ((refVar(b) * d.outHeight + refVar(y)) * d.outWidth + refVar(x)) * d.outChannels + channel;
    Stmt body =
        allocate(acc, seq({store(acc, 0, arithmetic.initial(channel, complete)), accumulate,
                           store(out, outIndex, arithmetic.finish(load(acc, 0), channel))}));
    body = forLoop(oc, 0, d.filtersPerGroup, body);
    if (grouped) body = forLoop(g, 0, d.groups, body);
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
