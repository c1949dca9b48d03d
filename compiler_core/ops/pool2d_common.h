// What AVERAGE_POOL_2D and MAX_POOL_2D share: the operand checks and the
// window walk of TFLite's reference pooling kernels, where each window is
// clipped to the input (padding elements are left out, not counted as zeros).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "reference/kernel_checks.h"
#include "reference/quantized_params.h"

namespace loupe::reference {

struct PoolShape {
  int batches = 0, inHeight = 0, inWidth = 0, depth = 0;
  int outHeight = 0, outWidth = 0;
  int filterHeight = 1, filterWidth = 1, strideHeight = 1, strideWidth = 1;
  int padHeight = 0, padWidth = 0;
};

inline PoolShape poolShape(const ir::Tensor& input, const ir::Tensor& output,
                           const ir::Pool2DAttrs& attrs) {
  PoolShape s;
  s.batches = input.shape[0];
  s.inHeight = input.shape[1];
  s.inWidth = input.shape[2];
  s.depth = input.shape[3];
  s.outHeight = output.shape[1];
  s.outWidth = output.shape[2];
  s.filterHeight = attrs.filterH;
  s.filterWidth = attrs.filterW;
  s.strideHeight = attrs.strideH;
  s.strideWidth = attrs.strideW;
  const WindowGeometry g = windowGeometry(attrs, s.inHeight, s.inWidth);
  s.padHeight = g.padHeight;
  s.padWidth = g.padWidth;
  return s;
}

// Calls reduce(outIndex, first, visit) for every output element, where
// visit(f) calls f(inIndex) for each input element of the clipped window.
template <typename Reduce>
void forEachPoolWindow(const PoolShape& s, Reduce reduce) {
  for (int b = 0; b < s.batches; ++b) {
    for (int outY = 0; outY < s.outHeight; ++outY) {
      for (int outX = 0; outX < s.outWidth; ++outX) {
        for (int c = 0; c < s.depth; ++c) {
          const int inXOrigin = outX * s.strideWidth - s.padWidth;
          const int inYOrigin = outY * s.strideHeight - s.padHeight;
          const int fxStart = std::max(0, -inXOrigin);
          const int fxEnd = std::min(s.filterWidth, s.inWidth - inXOrigin);
          const int fyStart = std::max(0, -inYOrigin);
          const int fyEnd = std::min(s.filterHeight, s.inHeight - inYOrigin);
          const auto visit = [&](auto&& f) {
            for (int fy = fyStart; fy < fyEnd; ++fy) {
              for (int fx = fxStart; fx < fxEnd; ++fx) {
                const int inY = inYOrigin + fy;
                const int inX = inXOrigin + fx;
                f(((static_cast<std::int64_t>(b) * s.inHeight + inY) * s.inWidth + inX) * s.depth +
                  c);
              }
            }
          };
          const std::int64_t outIndex =
              ((static_cast<std::int64_t>(b) * s.outHeight + outY) * s.outWidth + outX) * s.depth +
              c;
          reduce(outIndex, visit);
        }
      }
    }
  }
}

// Operand checks of both pooling operators: 4-D input and output of the same
// element type (float32, int8 or int16), the output shape the window gives,
// and quantisation parameters on integer tensors. The integer kernels work on
// the stored values and never rescale, as TFLite Micro's: a model is expected
// to give input and output the same scale and zero point.
inline std::optional<std::string> checkPool2D(const ir::Graph& graph, const ir::Operator& op) {
  const auto* attrs = attributesOf<ir::Pool2DAttrs>(op);
  if (attrs == nullptr) return "operator carries no pooling attributes";
  const ir::Tensor* input = graph.input(op, 0);
  if (input == nullptr) return "missing the input tensor (input 0)";
  if (op.outputs.size() != 1)
    return "expected one output, found " + std::to_string(op.outputs.size());
  const ir::Tensor& output = graph.output(op, 0);
  if (input->dtype != output.dtype ||
      (input->dtype != ir::DType::Float32 && input->dtype != ir::DType::Int8 &&
       input->dtype != ir::DType::Int16)) {
    return "unsupported element types (input " + describeDtype(input->dtype) + ", output " +
           describeDtype(output.dtype) + "); expected float32, int8 or int16 for both";
  }
  if (input->shape.size() != 4 || output.shape.size() != 4) {
    return "expected 4-D input and output; found " + describeTensor("input", *input) + " and " +
           describeTensor("output", output);
  }
  if (attrs->strideH < 1 || attrs->strideW < 1 || attrs->filterH < 1 || attrs->filterW < 1) {
    return "filter size and strides must be at least 1 (filter " + std::to_string(attrs->filterH) +
           "x" + std::to_string(attrs->filterW) + ", stride " + std::to_string(attrs->strideH) +
           "x" + std::to_string(attrs->strideW) + ")";
  }
  if (auto problem = unsupportedActivation(attrs->activation)) return problem;
  if (auto problem = checkExplicitPadding(attrs->explicitPadding)) return problem;
  const WindowGeometry g = windowGeometry(*attrs, input->shape[1], input->shape[2]);
  const ir::Shape expected = {input->shape[0], g.outHeight, g.outWidth, input->shape[3]};
  if (output.shape != expected) {
    return describeTensor("output", output) + " does not match the pooling window: expected " +
           ir::shapeToString(expected) + " with " + describePadding(*attrs);
  }
  if (input->dtype != ir::DType::Float32) {
    if (auto problem = checkPerTensorQuantization("input", *input)) return problem;
    if (auto problem = checkPerTensorQuantization("output", output)) return problem;
  }
  return std::nullopt;
}

}  // namespace loupe::reference
