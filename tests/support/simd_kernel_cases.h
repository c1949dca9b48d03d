// Random int8 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD operators in
// the shapes the SIMD lowerings (lowering/simd_lowering.h) take, for checking them against the
// reference interpreter on the host (the kernels' portable C) and on the
// boards (the DSP and MVE code). The shapes are chosen to reach the kernels'
// edges: channel counts that are not multiples of 2, 4 or 16, windows of
// 1 to 75 taps clipped on every side, strides, dilations, both paddings,
// every fused activation, zero points across the range, and biases and
// scales that make some outputs saturate and some land on rounding ties
// (for ADD, half of them by construction).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "graph_builder.h"
#include "reference/quantized_params.h"

namespace loupe::test {

// One graph of `count` independent operators, each with its own input and
// output (graph inputs and outputs in operator order), so a board runs
// them all in one firmware. Every operator is int8 with int32 bias.
inline ir::Graph randomSimdKernelGraph(std::uint32_t seed, int count) {
  std::mt19937 random(seed);
  const auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  const auto real = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(random);
  };
  const auto bytes = [&](std::size_t n, int lo, int hi) {
    std::vector<std::int8_t> values(n);
    for (auto& v : values) v = static_cast<std::int8_t>(uniform(lo, hi));
    return values;
  };
  const ir::Activation activations[] = {ir::Activation::None, ir::Activation::Relu,
                                        ir::Activation::Relu6, ir::Activation::ReluN1To1};

  GraphBuilder g;
  std::vector<int> inputs, outputs;
  for (int n = 0; n < count; ++n) {
    const std::string name = "op" + std::to_string(n);
    // The first four operators are one of each kind (ADD, FULLY_CONNECTED,
    // DEPTHWISE_CONV_2D, CONV_2D); then half are convolutions.
    const int kind = n < 4 ? (n < 3 ? n : 5) : uniform(0, 9);
    if (kind == 0) {
      // ADD of two tensors of one shape, scales apart by up to 10x; or, half
      // the time, both inputs on one scale and the output on twice it, where
      // every odd sum is a rounding tie (the multipliers are powers of two).
      const ir::Shape shape = {1, uniform(1, 7), uniform(1, 7), uniform(1, 21)};
      const bool ties = uniform(0, 1) == 0;
      const float scale1 = real(0.01f, 0.1f);
      const float scale2 = ties ? scale1 : real(0.01f, 0.1f);
      const float outScale = ties ? 2 * scale1 : real(0.02f, 0.2f);
      const int in1 =
          g.tensor(name + "_in1", ir::DType::Int8, shape, perTensor(scale1, uniform(-128, 127)));
      const int in2 =
          g.tensor(name + "_in2", ir::DType::Int8, shape, perTensor(scale2, uniform(-128, 127)));
      const int out =
          g.tensor(name + "_out", ir::DType::Int8, shape, perTensor(outScale, uniform(-128, 127)));
      ir::ElementwiseAttrs attrs;
      attrs.activation = activations[uniform(0, 3)];
      g.op(ir::OpType::Add, {in1, in2}, {out}, attrs);
      inputs.push_back(in1);
      inputs.push_back(in2);
      outputs.push_back(out);
      continue;
    }
    if (kind == 1) {
      // FULLY_CONNECTED: batch rows of any depth, symmetric weights per
      // tensor or per unit.
      const int batches = uniform(1, 3), depth = uniform(1, 70), units = uniform(1, 20);
      const float inScale = real(0.01f, 0.1f);
      const bool perUnit = uniform(0, 1) == 0;
      std::vector<float> weightScales;
      for (int u = 0; u < (perUnit ? units : 1); ++u) weightScales.push_back(real(0.002f, 0.02f));
      const float outScale =
          inScale * 0.011f * 60.0f * std::sqrt(static_cast<float>(depth)) * real(0.5f, 2.0f);
      const int in = g.tensor(name + "_in", ir::DType::Int8, {batches, depth},
                              perTensor(inScale, uniform(-128, 127)));
      const int w =
          g.constant(name + "_weights", ir::DType::Int8, {units, depth},
                     bytes(static_cast<std::size_t>(units * depth), -127, 127),
                     perUnit ? perChannel(weightScales, 0) : perTensor(weightScales[0], 0));
      std::vector<std::int32_t> biasValues(static_cast<std::size_t>(units));
      for (auto& v : biasValues) v = uniform(-20000, 20000);
      const int b = g.constant(name + "_bias", ir::DType::Int32, {units}, biasValues);
      const int out = g.tensor(name + "_out", ir::DType::Int8, {batches, units},
                               perTensor(outScale, uniform(-100, 100)));
      ir::FullyConnectedAttrs attrs;
      attrs.activation = activations[uniform(0, 3)];
      g.op(ir::OpType::FullyConnected, {in, w, b}, {out}, attrs);
      inputs.push_back(in);
      outputs.push_back(out);
      continue;
    }
    const bool depthwise = kind <= 4;
    const bool pointwise = !depthwise && uniform(0, 3) == 0;
    // A third of the depthwise ones 3x3 over 16 or 32 channels, MVE's
    // sixteen-lane kernels (loupe/mve_depthwise_3x3_x16.h), inside windows
    // and clipped ones.
    const bool sixteenLanes = depthwise && uniform(0, 2) == 0;
    const int height = uniform(1, 9), width = uniform(1, 9);
    const int depth = sixteenLanes ? 16 * uniform(1, 2)
                      : depthwise  ? uniform(1, 23)
                                   : uniform(1, 40);
    const int outChannels = depthwise ? depth : uniform(1, 13);
    const int filterHeight = pointwise ? 1 : sixteenLanes ? 3 : uniform(1, 5);
    const int filterWidth = pointwise ? 1 : sixteenLanes ? 3 : uniform(1, 5);
    const int strideH = uniform(1, 3), strideW = uniform(1, 3);
    const int dilationH = pointwise ? 1 : uniform(1, 2);
    const int dilationW = pointwise ? 1 : uniform(1, 2);
    // VALID needs the dilated window inside the input.
    const bool fitsValid =
        (filterHeight - 1) * dilationH < height && (filterWidth - 1) * dilationW < width;
    const ir::Padding padding =
        fitsValid && uniform(0, 1) == 0 ? ir::Padding::Valid : ir::Padding::Same;
    const ir::Activation activation = activations[uniform(0, 3)];
    const reference::WindowGeometry geometry = reference::computeWindowGeometry(
        padding, height, width, filterHeight, filterWidth, strideH, strideW, dilationH, dilationW);

    const float inScale = real(0.01f, 0.1f);
    const int inZeroPoint = uniform(-128, 127);
    std::vector<float> filterScales;
    for (int c = 0; c < outChannels; ++c) filterScales.push_back(real(0.002f, 0.02f));
    // Outputs spread over the int8 range for a typical accumulator, some
    // clamped: the accumulator's spread grows with the square root of the
    // taps it sums.
    const int taps = filterHeight * filterWidth * (depthwise ? 1 : depth);
    const float meanFilterScale = 0.011f;
    const float outScale =
        inScale * meanFilterScale * 60.0f * std::sqrt(static_cast<float>(taps)) * real(0.5f, 2.0f);
    const int outZeroPoint = uniform(-100, 100);

    const int in = g.tensor(name + "_in", ir::DType::Int8, {1, height, width, depth},
                            perTensor(inScale, inZeroPoint));
    const ir::Shape filterShape = depthwise
                                      ? ir::Shape{1, filterHeight, filterWidth, depth}
                                      : ir::Shape{outChannels, filterHeight, filterWidth, depth};
    const int w =
        g.constant(name + "_filter", ir::DType::Int8, filterShape,
                   bytes(static_cast<std::size_t>(ir::elementCount(filterShape)), -127, 127),
                   perChannel(filterScales, depthwise ? 3 : 0));
    std::vector<std::int32_t> biasValues(static_cast<std::size_t>(outChannels));
    for (auto& v : biasValues) v = uniform(-20000, 20000);
    const int b = g.constant(name + "_bias", ir::DType::Int32, {outChannels}, biasValues);
    const int out = g.tensor(name + "_out", ir::DType::Int8,
                             {1, geometry.outHeight, geometry.outWidth, outChannels},
                             perTensor(outScale, outZeroPoint));
    if (depthwise) {
      ir::DepthwiseConv2DAttrs attrs;
      attrs.padding = padding;
      attrs.strideH = strideH, attrs.strideW = strideW;
      attrs.dilationH = dilationH, attrs.dilationW = dilationW;
      attrs.activation = activation;
      g.op(ir::OpType::DepthwiseConv2D, {in, w, b}, {out}, attrs);
    } else {
      ir::Conv2DAttrs attrs;
      attrs.padding = padding;
      attrs.strideH = strideH, attrs.strideW = strideW;
      attrs.dilationH = dilationH, attrs.dilationW = dilationW;
      attrs.activation = activation;
      g.op(ir::OpType::Conv2D, {in, w, b}, {out}, attrs);
    }
    inputs.push_back(in);
    outputs.push_back(out);
  }
  return g.inputs(inputs).outputs(outputs).build();
}

}  // namespace loupe::test
