#include "lowering/simd_lowering.h"

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// Largest window (int8 elements) gathered into a patch.
constexpr std::int64_t kMaxPatchBytes = 8192;

// The knob of pixel blocking: MVE convolutions whose pixels can be grouped
// (a 1x1 stride-1 window read in place, or rows of at least four windows
// whose patches fit) compute four pixels per call ("4") or one ("1").
const Knob kPixelsKnob{
    "pixels", {"4", "1"}, "output pixels per kernel call, sharing each weight load (MVE)"};

// Whether the MVE lowering can group the pixels of this convolution.
bool groupsPixels(const ConvDims& d, const WindowPadding& pad) {
  const bool pointwise = d.filterHeight == 1 && d.filterWidth == 1 && pad.top == 0 && pad.left == 0;
  if (pointwise) return d.strideH == 1 && d.strideW == 1;
  return d.outWidth >= 4 && d.outWidth * d.windowSize() <= kMaxPatchBytes;
}

// The knob of channel blocking: MVE convolutions whose channels come in
// fours and whose patch is whole blocks of sixteen taps (or one partial
// block) compute four channels per step ("4", loupe/mve_conv_pixels_4ch.h)
// or one ("1", loupe/mve_conv_pixels.h).
const Knob kChannelsKnob{
    "channels", {"4", "1"}, "output channels per kernel step, sharing each input load (MVE)"};

bool takesFourChannels(const ConvDims& d) {
  return d.outChannels % 4 == 0 && (d.windowSize() % 16 == 0 || d.windowSize() < 16);
}

}  // namespace

std::vector<Knob> conv2DSimdKnobs(const ir::Graph& graph, const ir::Operator& op,
                                  target::CpuIsa isa) {
  if (isa != target::CpuIsa::Mve) return {};
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ConvDims d = convDims(*graph.input(op, 0), *graph.input(op, 1), graph.output(op, 0), attrs);
  const WindowPadding pad =
      windowPadding(attrs, d.inHeight, d.inWidth, d.filterHeight, d.filterWidth);
  std::vector<Knob> knobs;
  if (takesFourChannels(d)) knobs.push_back(kChannelsKnob);
  if (groupsPixels(d, pad)) knobs.push_back(kPixelsKnob);
  return knobs;
}

std::optional<PrimFunc> lowerConv2DSimd(const ir::Graph& graph, const ir::Operator& op,
                                        const std::string& functionName, target::CpuIsa isa,
                                        const Schedule& schedule) {
  if (isa == target::CpuIsa::Scalar) return std::nullopt;
  const auto& attrs = std::get<ir::Conv2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasInt8KernelOperands(input, filter, bias, output)) return std::nullopt;
  const ConvDims d = convDims(input, filter, output, attrs);
  if (d.groups != 1 || d.windowSize() > kMaxPatchBytes) return std::nullopt;

  FunctionBuilder fb(graph, op, functionName);
  ConvArithmetic arithmetic(fb, input, bias, output, filter.quantization.scales, attrs.activation,
                            convFilterSums(filter, d.outChannels), d.windowSize(), false);
  const auto requantization = arithmetic.kernelRequantization();
  if (!requantization) return std::nullopt;

  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const bool mve = isa == target::CpuIsa::Mve;
  // MVE computes two pixels by four channels per step where the channels
  // come in fours (loupe/mve_conv_pixels_4ch.h), in a filter layout of its own.
  // A patch whose last sixteen taps are a partial block (kws' first layer,
  // 40 taps) measured slower this way (228k -> 235k instructions, before the
  // kernel's first block was peeled) and keeps the four-pixel kernel.
  const bool fourChannels =
      mve && takesFourChannels(d) && knobChoice(schedule, kChannelsKnob) == "4";
  const Buffer filterBuffer =
      fb.constant("filter", ScalarType::Int8,
                  fourChannels ? mveFourChannelFilterLayout(tensorValues<std::int8_t>(filter),
                                                            d.outChannels, d.windowSize())
                               : simdFilterLayout(tensorValues<std::int8_t>(filter), d.outChannels,
                                                  d.windowSize(), isa));
  const Buffer accInit = fb.constant("acc_init", ScalarType::Int32, requantization->accInit);
  const Buffer multiplier =
      fb.constant("multiplier", ScalarType::Int32, requantization->multipliers);
  const Buffer shift = fb.constant("shift", ScalarType::Int32, requantization->shifts);

  const WindowPadding pad =
      windowPadding(attrs, d.inHeight, d.inWidth, d.filterHeight, d.filterWidth);
  const Var b = loopVar("b"), y = loopVar("y"), x = loopVar("x"), ky = loopVar("ky"),
            kx = loopVar("kx"), j = loopVar("j");
  const Expr inRowOrigin = refVar(b) * d.inHeight + refVar(y) * d.strideH - pad.top;
  const Expr inColOrigin = refVar(x) * d.strideW - pad.left;
  const Expr pixel = (refVar(b) * d.outHeight + refVar(y)) * d.outWidth + refVar(x);

  auto pixelsCall = [&](const Expr& patches, const Expr& pixels, int count) {
    return evaluate(callIntrinsic(
        fourChannels ? "loupe.mve.conv_pixels_4ch_s8" : "loupe.mve.conv_pixels_s8",
        ScalarType::Void,
        {patches, addressOf(filterBuffer), intImm(d.windowSize()), intImm(d.outChannels),
         intImm(count), addressOf(accInit), addressOf(multiplier), addressOf(shift),
         intImm(requantization->outputOffset), intImm(requantization->actMin),
         intImm(requantization->actMax), addressOf(out, pixels * d.outChannels)}));
  };
  auto kernelCall = [&](const Expr& patchAddress) {
    if (fourChannels) return pixelsCall(patchAddress, pixel, 1);
    return evaluate(callIntrinsic(
        std::string(convKernelName(isa)), ScalarType::Void,
        {patchAddress, addressOf(filterBuffer), intImm(d.windowSize()), intImm(d.outChannels),
         addressOf(accInit), addressOf(multiplier), addressOf(shift),
         intImm(requantization->outputOffset), intImm(requantization->actMin),
         intImm(requantization->actMax), addressOf(out, pixel * d.outChannels)}));
  };

  // MVE groups pixels unless the schedule asks for one per call.
  const bool groupPixels = mve && knobChoice(schedule, kPixelsKnob) == "4";

  // A 1x1 window with stride 1 is the input's pixels one after the other:
  // groups of four read in place (a group per call, so that the output may
  // still trail its input closely in memory), then the rest.
  const bool pointwise = d.filterHeight == 1 && d.filterWidth == 1 && pad.top == 0 && pad.left == 0;
  if (groupPixels && pointwise && d.strideH == 1 && d.strideW == 1) {
    const std::int64_t pixels = std::int64_t{d.batches} * d.outHeight * d.outWidth;
    const Var g = loopVar("g");
    std::vector<Stmt> steps;
    if (pixels >= 4) {
      steps.push_back(
          forLoop(g, 0, intImm(pixels / 4),
                  pixelsCall(addressOf(in, refVar(g) * (4 * d.inDepth)), refVar(g) * 4, 4)));
    }
    if (pixels % 4 != 0) {
      const std::int64_t first = pixels / 4 * 4;
      steps.push_back(pixelsCall(addressOf(in, intImm(first * d.inDepth)), intImm(first),
                                 static_cast<int>(pixels % 4)));
    }
    return fb.finish(seq(std::move(steps)));
  }

  // A 1x1 window is its input pixel's channels: no patch.
  if (pointwise) {
    const Expr inPixel = (inRowOrigin * d.inWidth + inColOrigin) * d.inDepth;
    return fb.finish(forLoop(
        b, 0, d.batches,
        forLoop(y, 0, d.outHeight, forLoop(x, 0, d.outWidth, kernelCall(addressOf(in, inPixel))))));
  }

  // Taps outside the input are gathered as the input zero point: with the
  // offset folded into acc_init, they add (zp - zp) * w = 0, as the
  // reference's skipping of them.
  // MVE gathers a whole output row's windows, one after the other, and
  // computes them in one call when they fit.
  const bool rowPatches =
      groupPixels && d.outWidth >= 4 && d.outWidth * d.windowSize() <= kMaxPatchBytes;
  const Expr slot = rowPatches ? refVar(x) * d.windowSize() : Expr(0);
  const Buffer patch = fb.local("patch", ScalarType::Int8,
                                rowPatches ? d.outWidth * d.windowSize() : d.windowSize());
  const Expr zeroPoint = intImm(input.quantization.zeroPoint(), ScalarType::Int8);
  const auto rowRuns =
      windowRuns(d.outHeight, d.inHeight, d.filterHeight, d.strideH, d.dilationH, pad.top);
  const auto colRuns =
      windowRuns(d.outWidth, d.inWidth, d.filterWidth, d.strideW, d.dilationW, pad.left);
  std::vector<Stmt> rowNests;
  for (const WindowRun& rows : rowRuns) {
    std::vector<Stmt> colNests;
    for (const WindowRun& cols : colRuns) {
      std::vector<Stmt> steps;
      if (!(rows.complete && cols.complete)) {
        steps.push_back(forLoop(j, 0, d.windowSize(), store(patch, slot + refVar(j), zeroPoint)));
      }
      const int rowTaps = rows.tapEnd - rows.tapBegin;
      const int colTaps = cols.tapEnd - cols.tapBegin;
      if (d.dilationW == 1) {
        // A filter row's taps inside the input are one contiguous span.
        const Expr inStart =
            ((inRowOrigin + refVar(ky) * d.dilationH) * d.inWidth + inColOrigin + cols.tapBegin) *
            d.inDepth;
        const Expr patchStart = slot + (refVar(ky) * d.filterWidth + cols.tapBegin) * d.inDepth;
        steps.push_back(
            forLoop(ky, rows.tapBegin, rowTaps,
                    forLoop(j, 0, colTaps * d.inDepth,
                            store(patch, patchStart + refVar(j), load(in, inStart + refVar(j))))));
      } else {
        const Expr inIndex = ((inRowOrigin + refVar(ky) * d.dilationH) * d.inWidth + inColOrigin +
                              refVar(kx) * d.dilationW) *
                                 d.inDepth +
                             refVar(j);
        const Expr patchIndex =
            slot + (refVar(ky) * d.filterWidth + refVar(kx)) * d.inDepth + refVar(j);
        steps.push_back(forLoop(
            ky, rows.tapBegin, rowTaps,
            forLoop(kx, cols.tapBegin, colTaps,
                    forLoop(j, 0, d.inDepth, store(patch, patchIndex, load(in, inIndex))))));
      }
      if (!rowPatches) steps.push_back(kernelCall(addressOf(patch)));
      colNests.push_back(forLoop(x, cols.outBegin, cols.outCount, seq(std::move(steps))));
    }
    if (rowPatches) {
      colNests.push_back(pixelsCall(
          addressOf(patch), (refVar(b) * d.outHeight + refVar(y)) * d.outWidth, d.outWidth));
    }
    rowNests.push_back(forLoop(y, rows.outBegin, rows.outCount, seq(std::move(colNests))));
  }
  return fb.finish(allocate(patch, forLoop(b, 0, d.batches, seq(std::move(rowNests)))));
}

}  // namespace loupe::lowering
