#include <algorithm>
#include <string_view>
#include <vector>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"

namespace loupe::lowering {

using namespace tir;

namespace {

// The kernels of one instruction set: any window, a 3x3 window inside the
// input, (MVE) the same sixteen channels per vector and (Thumb) two
// adjacent such windows; empty where there is none.
struct DepthwiseKernels {
  std::string_view pixel, window3x3, wide3x3, pair3x3;
};

std::optional<DepthwiseKernels> depthwiseKernels(target::CpuIsa isa) {
  switch (isa) {
    case target::CpuIsa::Mve:
      return DepthwiseKernels{"loupe.mve.dw_pixel_s8", "loupe.mve.dw_3x3_s8",
                              "loupe.mve.dw_3x3_x16_s8", ""};
    case target::CpuIsa::Thumb:
      // Without SIMD the pair shares weight (and, at stride 1, input) loads.
      return DepthwiseKernels{"loupe.thumb.dw_pixel_s8", "loupe.thumb.dw_3x3_s8", "",
                              "loupe.thumb.dw_3x3_x2_s8"};
    case target::CpuIsa::Dsp:
      return DepthwiseKernels{"loupe.dsp.dw_pixel_s8", "loupe.dsp.dw_3x3_s8", "", ""};
    default:
      return std::nullopt;
  }
}

// The sixteen-channel 3x3 kernel (loupe/mve_depthwise_3x3_x16.h) adds two
// taps' int8 products in int16, exact while no weight is -128.
bool sixteenLanesExact(const ir::Tensor& filter, int channels) {
  const std::vector<std::int8_t> weights = tensorValues<std::int8_t>(filter);
  return channels % 16 == 0 &&
         std::none_of(weights.begin(), weights.end(), [](std::int8_t v) { return v == -128; });
}

// The knob of the 3x3 windows inside the input: the instruction set's
// widest kernel first ("3x3x16": sixteen channels per vector, clipped
// windows of two or three columns too; "3x3x2": two windows per call), then
// the unrolled 3x3 kernel, then the kernel of any window ("any").
std::vector<std::string> windowChoices(const DepthwiseKernels& kernels, bool sixteenLanes) {
  std::vector<std::string> choices;
  if (!kernels.wide3x3.empty() && sixteenLanes) choices.push_back("3x3x16");
  if (!kernels.pair3x3.empty()) choices.push_back("3x3x2");
  choices.push_back("3x3");
  choices.push_back("any");
  return choices;
}

}  // namespace

std::vector<Knob> depthwiseConv2DSimdKnobs(const ir::Graph& graph, const ir::Operator& op,
                                           target::CpuIsa isa) {
  const auto kernels = depthwiseKernels(isa);
  const ir::Tensor& filter = *graph.input(op, 1);
  if (!kernels || filter.shape.size() != 4 || filter.shape[1] != 3 || filter.shape[2] != 3) {
    return {};
  }
  return {{"window",
           windowChoices(*kernels, sixteenLanesExact(filter, graph.input(op, 0)->shape[3])),
           "kernel for the 3x3 windows inside the input: the widest first, any-window last"}};
}

std::optional<PrimFunc> lowerDepthwiseConv2DSimd(const ir::Graph& graph, const ir::Operator& op,
                                                 const std::string& functionName,
                                                 target::CpuIsa isa, const Schedule& schedule) {
  const auto kernels = depthwiseKernels(isa);
  if (!kernels) return std::nullopt;
  const auto& attrs = std::get<ir::DepthwiseConv2DAttrs>(op.attributes);
  const ir::Tensor& input = *graph.input(op, 0);
  const ir::Tensor& filter = *graph.input(op, 1);
  const ir::Tensor* bias = graph.input(op, 2);
  const ir::Tensor& output = graph.output(op, 0);
  if (!hasInt8KernelOperands(input, filter, bias, output)) return std::nullopt;
  const int batches = input.shape[0], inHeight = input.shape[1], inWidth = input.shape[2],
            channels = input.shape[3];
  const int filterHeight = filter.shape[1], filterWidth = filter.shape[2];
  const int outHeight = output.shape[1], outWidth = output.shape[2];
  if (attrs.depthMultiplier != 1 || output.shape[3] != channels) return std::nullopt;

  FunctionBuilder fb(graph, op, functionName);
  ConvArithmetic arithmetic(fb, input, bias, output, filter.quantization.scales, attrs.activation,
                            depthwiseFilterSums(filter, channels),
                            std::int64_t{filterHeight} * filterWidth, false);
  const auto requantization = arithmetic.kernelRequantization();
  if (!requantization) return std::nullopt;

  const Buffer in = fb.param(op.inputs[0], "input", false);
  const Buffer out = fb.param(op.outputs[0], "output", true);
  const Buffer w = fb.constant(filter, "filter");
  // The schedule's window kernel, the widest the instruction set has by
  // default.
  const bool sixteenLanes = sixteenLanesExact(filter, channels);
  const std::vector<std::string> choices = windowChoices(*kernels, sixteenLanes);
  const auto choice = schedule.find("window");
  const std::string& windowKernel = choice == schedule.end() ? choices.front() : choice->second;
  const Buffer multiplier =
      fb.constant("multiplier", ScalarType::Int32, requantization->multipliers);
  const Buffer shift = fb.constant("shift", ScalarType::Int32, requantization->shifts);
  Buffer accInit, biasOnly;  // added when a window needs them

  const WindowPadding pad = windowPadding(attrs, inHeight, inWidth, filterHeight, filterWidth);
  const auto rowRuns =
      windowRuns(outHeight, inHeight, filterHeight, attrs.strideH, attrs.dilationH, pad.top);
  const auto colRuns =
      windowRuns(outWidth, inWidth, filterWidth, attrs.strideW, attrs.dilationW, pad.left);
  const Var b = loopVar("b"), y = loopVar("y"), x = loopVar("x");
  const auto pixelAt = [&](const Expr& column) {
    return (refVar(b) * outHeight + refVar(y)) * outWidth + column;
  };
  const Expr pixel = pixelAt(refVar(x));

  std::vector<Stmt> rowNests;
  for (const WindowRun& rows : rowRuns) {
    std::vector<Stmt> colNests;
    for (const WindowRun& cols : colRuns) {
      // A window inside the input starts from the folded offset; a clipped
      // one from the bias, adding the offset to each tap it reads.
      const bool complete = rows.complete && cols.complete;
      Buffer& start = complete ? accInit : biasOnly;
      if (!start) {
        start = complete ? fb.constant("acc_init", ScalarType::Int32, requantization->accInit)
                         : fb.constant("bias", ScalarType::Int32, requantization->bias);
      }
      const Expr inRow = refVar(b) * inHeight + refVar(y) * attrs.strideH +
                         (rows.tapBegin * attrs.dilationH - pad.top);
      const auto windowAt = [&](const Expr& column) {
        const Expr inCol = column * attrs.strideW + (cols.tapBegin * attrs.dilationW - pad.left);
        return addressOf(in, (inRow * inWidth + inCol) * channels);
      };
      const int tapsH = rows.tapEnd - rows.tapBegin, tapsW = cols.tapEnd - cols.tapBegin;
      const Expr window = windowAt(refVar(x));
      const Expr rowStep = intImm(attrs.dilationH * inWidth * channels);
      const Expr colStep = intImm(attrs.dilationW * channels);
      if (complete && tapsH == 3 && tapsW == 3 && windowKernel != "any") {
        // Nearly every pixel of a 3x3 depthwise convolution: the unrolled
        // kernel, on pairs of pixels where the instruction set has one, and
        // (MVE) sixteen channels per vector where its int16 pairs of
        // products cannot overflow.
        const auto requantArgs = [&](const Expr& outAddress) {
          return std::vector<Expr>{addressOf(start),
                                   addressOf(multiplier),
                                   addressOf(shift),
                                   intImm(requantization->outputOffset),
                                   intImm(requantization->actMin),
                                   intImm(requantization->actMax),
                                   outAddress};
        };
        const auto single = [&](const Expr& column) {
          std::vector<Expr> args{windowAt(column), rowStep, colStep, addressOf(w),
                                 intImm(channels)};
          for (Expr& arg : requantArgs(addressOf(out, pixelAt(column) * channels)))
            args.push_back(std::move(arg));
          return evaluate(callIntrinsic(
              std::string(windowKernel == "3x3x16" && sixteenLanes ? kernels->wide3x3
                                                                   : kernels->window3x3),
              ScalarType::Void, std::move(args)));
        };
        const int pairs = windowKernel == "3x3x2" ? cols.outCount / 2 : 0;
        if (pairs > 0) {
          const Expr first = refVar(x) * 2 + cols.outBegin;
          std::vector<Expr> args{windowAt(first), rowStep,
                                 colStep,         intImm(attrs.strideW * channels),
                                 addressOf(w),    intImm(channels)};
          for (Expr& arg : requantArgs(addressOf(out, pixelAt(first) * channels)))
            args.push_back(std::move(arg));
          colNests.push_back(forLoop(x, 0, pairs,
                                     evaluate(callIntrinsic(std::string(kernels->pair3x3),
                                                            ScalarType::Void, std::move(args)))));
        }
        if (cols.outCount > 2 * pairs) {
          if (pairs > 0) {
            colNests.push_back(single(intImm(cols.outBegin + 2 * pairs)));
          } else {
            colNests.push_back(forLoop(x, cols.outBegin, cols.outCount, single(refVar(x))));
          }
        }
        continue;
      }
      const bool twoColumnsOrMore = tapsW >= 2;
      if (windowKernel == "3x3x16" && sixteenLanes && filterHeight == 3 && filterWidth == 3 &&
          twoColumnsOrMore) {
        // A clipped window of the same (all three columns, or the first or
        // last two): the outside taps read as the zero point, which the
        // folded offset cancels (loupe/mve_depthwise_3x3_x16.h); inlined
        // where only columns are clipped (the calls in every row).
        if (!accInit) {
          accInit = fb.constant("acc_init", ScalarType::Int32, requantization->accInit);
        }
        const Stmt clipped = evaluate(callIntrinsic(
            rows.complete ? "loupe.mve.dw_3x3_clipped_inline_x16_s8"
                          : "loupe.mve.dw_3x3_clipped_x16_s8",
            ScalarType::Void,
            {window, rowStep, colStep, addressOf(w), intImm(channels), intImm(rows.tapBegin),
             intImm(rows.tapEnd), intImm(cols.tapBegin), intImm(cols.tapEnd),
             intImm(-requantization->inputOffset), addressOf(accInit), addressOf(multiplier),
             addressOf(shift), intImm(requantization->outputOffset), intImm(requantization->actMin),
             intImm(requantization->actMax), addressOf(out, pixel * channels)}));
        colNests.push_back(forLoop(x, cols.outBegin, cols.outCount, clipped));
        continue;
      }
      const Stmt call = evaluate(callIntrinsic(
          std::string(kernels->pixel), ScalarType::Void,
          {window, rowStep, colStep,
           addressOf(w, intImm((rows.tapBegin * filterWidth + cols.tapBegin) * channels)),
           intImm(filterWidth * channels), intImm(tapsH), intImm(tapsW), intImm(channels),
           intImm(complete ? 0 : requantization->inputOffset), addressOf(start),
           addressOf(multiplier), addressOf(shift), intImm(requantization->outputOffset),
           intImm(requantization->actMin), intImm(requantization->actMax),
           addressOf(out, pixel * channels)}));
      colNests.push_back(forLoop(x, cols.outBegin, cols.outCount, call));
    }
    rowNests.push_back(forLoop(y, rows.outBegin, rows.outCount, seq(std::move(colNests))));
  }
  return fb.finish(forLoop(b, 0, batches, seq(std::move(rowNests))));
}

}  // namespace loupe::lowering
