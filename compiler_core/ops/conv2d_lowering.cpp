// CONV_2D -> TIR. The output rows and columns are split into runs whose
// windows clip the same filter taps (conv_lowering_common.h): one loop nest
// per pair of runs, every bound a constant, no bounds checks anywhere.
//
// Quantised convolutions gather each output pixel's window once into a
// local int16 patch laid out as the filter ([groups][taps][channels], padded
// with zeros to a multiple of 16 elements), adding the input offset as they
// copy; clipped taps stay zero, which is exactly the reference's skipping of
// them. Every output channel is then one dot product of its filter row with
// the patch over a contiguous span: no offset, no bounds, no index
// arithmetic in the inner loop, int8 x int16 products the C compiler turns
// into multiply-add vector instructions. The gather costs one pass over the
// window per pixel, shared by all output channels.
//
// Float convolutions keep the reference's order of operations per output
// channel — taps in filter order from 0.0f, bias last, clamp — and never
// touch a clipped tap, so they cannot use a zero-padded patch or reorder a
// dot product. Instead each pixel accumulates a row of all output channels:
// for every tap and input channel, one loop over the output channels adds
// input * filter to each, with the filter stored transposed so that loop is
// contiguous (and vectorised; every channel still sums in filter order).
//
// Quantised windows too large for a patch (kMaxPatchElements) walk the
// input directly: per filter row, its taps and input channels are
// contiguous in the input and in the filter (without width dilation or
// groups), so the innermost loop is one span; the input zero point is folded
// into each channel's starting value in the interior and added per tap in
// clipped windows.
#include <algorithm>
#include <cstdint>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Largest patch (int16 elements) kept on the stack: 8 KiB.
constexpr std::int64_t kMaxPatchElements = 4096;

// The loop nests of one convolution; `nest` gives the statement for the
// output pixels of one pair of row and column runs.
class ConvLowering {
 public:
  ConvLowering(FunctionBuilder& fb, const ConvDims& d, WindowPadding pad, Buffer in, Buffer out,
               ConvArithmetic& arithmetic)
      : fb_(fb), d_(d), in_(std::move(in)), out_(std::move(out)), arithmetic_(arithmetic) {
    channel_ = d.groups > 1 ? refVar(g_) * d.filtersPerGroup + refVar(oc_) : refVar(oc_);
    inRowOrigin_ = refVar(b_) * d.inHeight + refVar(y_) * d.strideH - pad.top;
    inColOrigin_ = refVar(x_) * d.strideW - pad.left;
  }

  const Var& b() const { return b_; }
  const Var& y() const { return y_; }
  const Var& x() const { return x_; }

  // Every output channel of one pixel from its patch: the filter rows are
  // `rowLength` elements apart in `filter`, and group g's window starts at
  // g * rowLength in the patch.
  Stmt patchDots(const Buffer& filter, const Buffer& patch, int rowLength) {
    const Buffer acc = fb_.local("acc", arithmetic_.accType(), 1);
    const Expr patchStart = d_.groups > 1 ? refVar(g_) * rowLength : Expr(0);
    const Stmt dot = forLoop(
        i_, 0, rowLength,
        store(acc, 0,
              load(acc, 0) + arithmetic_.product(load(filter, channel_ * rowLength + refVar(i_)),
                                                 load(patch, patchStart + refVar(i_)), false)));
    return channelLoops(allocate(acc, seq({store(acc, 0, arithmetic_.initial(channel_, false)), dot,
                                           storeOutput(load(acc, 0))})));
  }

  // Copies the window's taps inside the input into the patch (offset added);
  // clipped windows first clear it, so their clipped taps read as zero.
  Stmt gatherPatch(const Buffer& patch, int rowLength, const WindowRun& rows,
                   const WindowRun& cols) {
    std::vector<Stmt> steps;
    if (!(rows.complete && cols.complete)) {
      steps.push_back(forLoop(j_, 0, d_.groups * rowLength,
                              store(patch, refVar(j_), intImm(0, ScalarType::Int16))));
    }
    const int rowTaps = rows.tapEnd - rows.tapBegin;
    const int colTaps = cols.tapEnd - cols.tapBegin;
    auto copy = [&](const Expr& patchIndex, const Expr& inputIndex) {
      return store(patch, patchIndex,
                   arithmetic_.offsetInput(load(in_, inputIndex), ScalarType::Int16));
    };
    if (d_.groups == 1 && d_.dilationW == 1) {
      // A filter row's taps inside the input are one contiguous span.
      const Expr inStart = ((inRowOrigin_ + refVar(ky_) * d_.dilationH) * d_.inWidth +
                            inColOrigin_ + cols.tapBegin) *
                           d_.inDepth;
      const Expr patchStart = (refVar(ky_) * d_.filterWidth + cols.tapBegin) * d_.inDepth;
      steps.push_back(forLoop(ky_, rows.tapBegin, rowTaps,
                              forLoop(j_, 0, colTaps * d_.inDepth,
                                      copy(patchStart + refVar(j_), inStart + refVar(j_)))));
    } else {
      const Expr inIndex = ((inRowOrigin_ + refVar(ky_) * d_.dilationH) * d_.inWidth +
                            inColOrigin_ + refVar(kx_) * d_.dilationW) *
                               d_.inDepth +
                           refVar(g_) * d_.filterDepth + refVar(j_);
      const Expr patchIndex = refVar(g_) * rowLength +
                              (refVar(ky_) * d_.filterWidth + refVar(kx_)) * d_.filterDepth +
                              refVar(j_);
      steps.push_back(
          forLoop(ky_, rows.tapBegin, rowTaps,
                  forLoop(kx_, cols.tapBegin, colTaps,
                          forLoop(g_, 0, d_.groups,
                                  forLoop(j_, 0, d_.filterDepth, copy(patchIndex, inIndex))))));
    }
    return seq(std::move(steps));
  }

  // Every output channel of one float pixel as one accumulator row: each
  // tap inside the input adds input * filter to all channels of its group,
  // `transposed` holding the filter as [group][tap][input channel][channel].
  Stmt floatRow(const Buffer& transposed, const WindowRun& rows, const WindowRun& cols) {
    const Buffer acc = fb_.local("acc", ScalarType::Float32, d_.outChannels);
    const Expr inIndex = ((inRowOrigin_ + refVar(ky_) * d_.dilationH) * d_.inWidth + inColOrigin_ +
                          refVar(kx_) * d_.dilationW) *
                             d_.inDepth +
                         refVar(g_) * d_.filterDepth + refVar(i_);
    const Expr filterIndex =
        (((refVar(g_) * d_.filterHeight + refVar(ky_)) * d_.filterWidth + refVar(kx_)) *
             d_.filterDepth +
         refVar(i_)) *
            d_.filtersPerGroup +
        refVar(oc_);
    const Stmt accumulate = forLoop(
        ky_, rows.tapBegin, rows.tapEnd - rows.tapBegin,
        forLoop(
            kx_, cols.tapBegin, cols.tapEnd - cols.tapBegin,
            forLoop(g_, 0, d_.groups,
                    forLoop(i_, 0, d_.filterDepth,
                            forLoop(oc_, 0, d_.filtersPerGroup,
                                    store(acc, channel_,
                                          load(acc, channel_) +
                                              arithmetic_.product(load(transposed, filterIndex),
                                                                  load(in_, inIndex), false)))))));
    const Expr outIndex =
        ((refVar(b_) * d_.outHeight + refVar(y_)) * d_.outWidth + refVar(x_)) * d_.outChannels +
        refVar(oc_);
    return allocate(acc,
                    seq({forLoop(oc_, 0, d_.outChannels,
                                 store(acc, refVar(oc_), arithmetic_.initial(refVar(oc_), false))),
                         accumulate,
                         forLoop(oc_, 0, d_.outChannels,
                                 store(out_, outIndex,
                                       arithmetic_.finish(load(acc, refVar(oc_)), refVar(oc_))))}));
  }

  // Every output channel of one pixel straight from the input.
  Stmt directDots(const Buffer& filter, const WindowRun& rows, const WindowRun& cols) {
    const bool complete = rows.complete && cols.complete;
    const Buffer acc = fb_.local("acc", arithmetic_.accType(), 1);
    auto accumulateOver = [&](const Expr& filterIndex, const Expr& inputIndex) {
      return store(acc, 0,
                   load(acc, 0) + arithmetic_.product(load(filter, filterIndex),
                                                      load(in_, inputIndex), !complete));
    };
    const int rowTaps = rows.tapEnd - rows.tapBegin;
    const int colTaps = cols.tapEnd - cols.tapBegin;
    Stmt accumulate;
    if (d_.groups == 1 && d_.dilationW == 1) {
      // One contiguous span per filter row: its taps times the input channels.
      const Expr inStart = ((inRowOrigin_ + refVar(ky_) * d_.dilationH) * d_.inWidth +
                            inColOrigin_ + cols.tapBegin) *
                           d_.inDepth;
      const Expr filterStart =
          ((channel_ * d_.filterHeight + refVar(ky_)) * d_.filterWidth + cols.tapBegin) *
          d_.filterDepth;
      accumulate = forLoop(ky_, rows.tapBegin, rowTaps,
                           forLoop(i_, 0, colTaps * d_.inDepth,
                                   accumulateOver(filterStart + refVar(i_), inStart + refVar(i_))));
    } else {
      const Expr inIndex = ((inRowOrigin_ + refVar(ky_) * d_.dilationH) * d_.inWidth +
                            inColOrigin_ + refVar(kx_) * d_.dilationW) *
                               d_.inDepth +
                           (d_.groups > 1 ? refVar(g_) * d_.filterDepth : Expr(0)) + refVar(i_);
      const Expr filterIndex =
          ((channel_ * d_.filterHeight + refVar(ky_)) * d_.filterWidth + refVar(kx_)) *
              d_.filterDepth +
          refVar(i_);
      accumulate =
          forLoop(ky_, rows.tapBegin, rowTaps,
                  forLoop(kx_, cols.tapBegin, colTaps,
                          forLoop(i_, 0, d_.filterDepth, accumulateOver(filterIndex, inIndex))));
    }
    return channelLoops(allocate(acc, seq({store(acc, 0, arithmetic_.initial(channel_, complete)),
                                           accumulate, storeOutput(load(acc, 0))})));
  }

 private:
  Stmt storeOutput(const Expr& acc) {
    const Expr outIndex =
        ((refVar(b_) * d_.outHeight + refVar(y_)) * d_.outWidth + refVar(x_)) * d_.outChannels +
        channel_;
    return store(out_, outIndex, arithmetic_.finish(acc, channel_));
  }

  Stmt channelLoops(Stmt body) const {
    body = forLoop(oc_, 0, d_.filtersPerGroup, std::move(body));
    return d_.groups > 1 ? forLoop(g_, 0, d_.groups, std::move(body)) : body;
  }

  FunctionBuilder& fb_;
  const ConvDims& d_;
  Buffer in_, out_;
  ConvArithmetic& arithmetic_;
  Var b_ = loopVar("b"), y_ = loopVar("y"), x_ = loopVar("x"), g_ = loopVar("g"),
      oc_ = loopVar("oc"), ky_ = loopVar("ky"), kx_ = loopVar("kx"), i_ = loopVar("i"),
      j_ = loopVar("j");
  Expr channel_;      // output channel oc of group g: g * filtersPerGroup + oc
  Expr inRowOrigin_;  // (batch, input row) of the window's first filter row, as b * H + row
  Expr inColOrigin_;  // input column of the window's first filter column
};

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
  const bool int64Requantization = reference::requantizesInt64Sum(input, bias);
  ConvArithmetic arithmetic(fb, input, bias, output, filter.quantization.scales, attrs.activation,
                            convFilterSums(filter, d.outChannels), d.windowSize(),
                            int64Requantization);
  ConvLowering lowering(fb, d, pad, in, out, arithmetic);

  // Rows of the patch and of the filter padded to a multiple of 16 elements
  // (zeros in both), so the dot product is whole 16-byte vectors of filter.
  const int rowLength = d.windowSize() < 4 ? d.windowSize() : (d.windowSize() + 15) / 16 * 16;
  const bool isFloat = arithmetic.isFloat();
  const bool usePatch = !isFloat && std::int64_t{d.groups} * rowLength <= kMaxPatchElements;
  Buffer filterBuffer, patch;
  if (isFloat) {
    // [group][tap][input channel][channel of the group]
    const std::vector<float> values = tensorValues<float>(filter);
    std::vector<float> transposed(values.size());
    const std::size_t taps = static_cast<std::size_t>(d.filterHeight) * d.filterWidth;
    const auto perGroup = static_cast<std::size_t>(d.filtersPerGroup);
    const auto depth = static_cast<std::size_t>(d.filterDepth);
    for (std::size_t oc = 0; oc < static_cast<std::size_t>(d.outChannels); ++oc) {
      const std::size_t group = oc / perGroup;
      for (std::size_t t = 0; t < taps; ++t) {
        for (std::size_t i = 0; i < depth; ++i) {
          transposed[((group * taps + t) * depth + i) * perGroup + oc % perGroup] =
              values[(oc * taps + t) * depth + i];
        }
      }
    }
    filterBuffer = fb.constant("filter", ScalarType::Float32, transposed);
  } else if (usePatch && rowLength != d.windowSize()) {
    const std::vector<std::int8_t> values = tensorValues<std::int8_t>(filter);
    std::vector<std::int8_t> padded(static_cast<std::size_t>(d.outChannels) * rowLength, 0);
    for (std::size_t c = 0; c < static_cast<std::size_t>(d.outChannels); ++c) {
      std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(c * d.windowSize()), d.windowSize(),
                  padded.begin() + static_cast<std::ptrdiff_t>(c * rowLength));
    }
    filterBuffer = fb.constant("filter", ScalarType::Int8, padded);
  } else {
    filterBuffer = fb.constant(filter, "filter");
  }
  if (usePatch) patch = fb.local("patch", ScalarType::Int16, std::int64_t{d.groups} * rowLength);

  std::vector<Stmt> rowNests;
  for (const WindowRun& rows : rowRuns) {
    std::vector<Stmt> colNests;
    for (const WindowRun& cols : colRuns) {
      Stmt pixel;
      if (isFloat) {
        pixel = lowering.floatRow(filterBuffer, rows, cols);
      } else if (usePatch) {
        pixel = seq({lowering.gatherPatch(patch, rowLength, rows, cols),
                     lowering.patchDots(filterBuffer, patch, rowLength)});
      } else {
        pixel = lowering.directDots(filterBuffer, rows, cols);
      }
      colNests.push_back(forLoop(lowering.x(), cols.outBegin, cols.outCount, pixel));
    }
    rowNests.push_back(
        forLoop(lowering.y(), rows.outBegin, rows.outCount, seq(std::move(colNests))));
  }
  Stmt body = forLoop(lowering.b(), 0, d.batches, seq(std::move(rowNests)));
  if (!usePatch) return fb.finish(body);
  if (rowLength != d.windowSize()) {
    // The padding at the end of each group's row stays zero from here on.
    const Var j = loopVar("j");
    body = seq(
        {forLoop(j, 0, d.groups * rowLength, store(patch, refVar(j), intImm(0, ScalarType::Int16))),
         body});
  }
  return fb.finish(allocate(patch, body));
}

}  // namespace loupe::lowering
