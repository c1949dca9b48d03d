#include <algorithm>

#include "lowering/conv_lowering_common.h"
#include "lowering/lowering_rule.h"
#include "lowering/simd_lowering.h"

namespace loupe::lowering {

using namespace tir;

std::optional<PrimFunc> lowerDepthwiseConv2DSimd(const ir::Graph& graph, const ir::Operator& op,
                                                 const std::string& functionName,
                                                 target::CpuIsa isa) {
  if (isa != target::CpuIsa::Mve) return std::nullopt;
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
  // The sixteen-channel 3x3 kernel (loupe/mve_depthwise_3x3_x16.h) adds two
  // taps' int8 products in int16, exact while no weight is -128.
  const std::vector<std::int8_t> weights = tensorValues<std::int8_t>(filter);
  const bool sixteenLanes =
      channels % 16 == 0 &&
      std::none_of(weights.begin(), weights.end(), [](std::int8_t v) { return v == -128; });
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
  const Expr pixel = (refVar(b) * outHeight + refVar(y)) * outWidth + refVar(x);

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
      const Expr inCol = refVar(x) * attrs.strideW + (cols.tapBegin * attrs.dilationW - pad.left);
      const int tapsH = rows.tapEnd - rows.tapBegin, tapsW = cols.tapEnd - cols.tapBegin;
      const Expr window = addressOf(in, (inRow * inWidth + inCol) * channels);
      const Expr rowStep = intImm(attrs.dilationH * inWidth * channels);
      const Expr colStep = intImm(attrs.dilationW * channels);
      if (complete && tapsH == 3 && tapsW == 3) {
        // Nearly every pixel of a 3x3 depthwise convolution: the unrolled
        // kernel, sixteen channels per vector where its int16 pairs of
        // products cannot overflow.
        const Stmt call = evaluate(callIntrinsic(
            sixteenLanes ? "loupe.mve.dw_3x3_x16_s8" : "loupe.mve.dw_3x3_s8", ScalarType::Void,
            {window, rowStep, colStep, addressOf(w), intImm(channels), addressOf(start),
             addressOf(multiplier), addressOf(shift), intImm(requantization->outputOffset),
             intImm(requantization->actMin), intImm(requantization->actMax),
             addressOf(out, pixel * channels)}));
        colNests.push_back(forLoop(x, cols.outBegin, cols.outCount, call));
        continue;
      }
      const Stmt call = evaluate(callIntrinsic(
          "loupe.mve.dw_pixel_s8", ScalarType::Void,
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
