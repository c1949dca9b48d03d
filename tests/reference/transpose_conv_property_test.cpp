// Quantised TRANSPOSE_CONV on drawn cases against TFLite Micro's
// arithmetic, written here a second time from its kernel (transpose_conv.cc's
// CalculateOpData: padding from the output's size, parameters from
// PopulateConvolutionQuantizationParams; reference_integer_ops::
// TransposeConv, TFLM commit 90b983c) and independently of Loupe's kernels:
// int8 (bias int32 or none) and 16x8 (bias int64, int16 widened, or none;
// int64 sums), filter scales per channel or per tensor, SAME and VALID
// with strides 1 to 3 and output sizes around the usual ones, every fused
// activation, multipliers above 1, outputs that saturate. The oracle's bytes
// were cross-checked offline against TFLM's own kernel and parameter code
// compiled outside this repository (LOUPE_TRANSPOSE_CONV_CASES_DUMP=FILE
// writes the cases).
#include <QtTest>

#include <array>
#include <cstdlib>
#include <fstream>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace transpose_conv_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct TransposeConvCase {
  bool int16 = false;
  int biasBits = 32;  // 0: no bias; 32 (int8); 64 or 16 (16x8)
  int batches = 1, inH = 1, inW = 1, inDepth = 1, outH = 1, outW = 1, outDepth = 1;
  int filterH = 1, filterW = 1, strideH = 1, strideW = 1;
  bool same = false;
  ir::Activation activation = ir::Activation::None;
  float inScale = 1, outScale = 1;
  std::int32_t inZero = 0, outZero = 0;
  std::vector<float> filterScales;  // one (per tensor) or outDepth
  std::vector<std::int64_t> bias;
  std::vector<std::int32_t> input, filter;
};

std::vector<std::int32_t> tfliteMicro(const TransposeConvCase& c) {
  // CalculateOpData: the padding of a convolution from the output's size
  // back to the input (dilation 1); its own output size is unused.
  const int padH =
      tflm::windowPadding(c.strideH, 1, c.outH, c.filterH,
                          tflm::windowOutputSize(c.same, c.outH, c.filterH, c.strideH, 1));
  const int padW =
      tflm::windowPadding(c.strideW, 1, c.outW, c.filterW,
                          tflm::windowOutputSize(c.same, c.outW, c.filterW, c.strideW, 1));
  std::vector<std::int32_t> multipliers(static_cast<std::size_t>(c.outDepth));
  std::vector<int> shifts(static_cast<std::size_t>(c.outDepth));
  for (int oc = 0; oc < c.outDepth; ++oc) {
    const float filterScale = c.filterScales[c.filterScales.size() == 1 ? 0 : oc];
    tflm::quantizeMultiplier(static_cast<double>(c.inScale) * static_cast<double>(filterScale) /
                                 static_cast<double>(c.outScale),
                             multipliers[oc], shifts[oc]);
  }
  const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  const auto [actMin, actMax] =
      tflm::activationRange(c.activation, c.outScale, c.outZero, low, high);
  // Scatter every input element through the filter into the sums (int32
  // for int8, int64 for 16x8), then requantise each.
  const std::size_t count = static_cast<std::size_t>(c.batches * c.outH * c.outW * c.outDepth);
  std::vector<std::int64_t> sums64(count, 0);
  std::vector<std::uint32_t> sums32(count, 0);  // int32 arithmetic, wrapping defined
  for (int b = 0; b < c.batches; ++b) {
    for (int iy = 0; iy < c.inH; ++iy) {
      for (int ix = 0; ix < c.inW; ++ix) {
        for (int ic = 0; ic < c.inDepth; ++ic) {
          const std::int32_t in = c.input[((b * c.inH + iy) * c.inW + ix) * c.inDepth + ic];
          for (int fy = 0; fy < c.filterH; ++fy) {
            for (int fx = 0; fx < c.filterW; ++fx) {
              const int oy = iy * c.strideH - padH + fy, ox = ix * c.strideW - padW + fx;
              if (oy < 0 || oy >= c.outH || ox < 0 || ox >= c.outW) continue;
              for (int oc = 0; oc < c.outDepth; ++oc) {
                const std::int32_t w =
                    c.filter[((oc * c.filterH + fy) * c.filterW + fx) * c.inDepth + ic];
                const std::size_t at =
                    static_cast<std::size_t>(((b * c.outH + oy) * c.outW + ox) * c.outDepth + oc);
                const std::int32_t term = c.int16 ? in * w : (in - c.inZero) * w;
                sums64[at] += term;
                sums32[at] += static_cast<std::uint32_t>(term);
              }
            }
          }
        }
      }
    }
  }
  std::vector<std::int32_t> result;
  for (std::size_t at = 0; at < count; ++at) {
    const int oc = static_cast<int>(at % static_cast<std::size_t>(c.outDepth));
    std::int32_t value;
    if (c.int16) {
      std::int64_t acc = sums64[at];
      if (c.biasBits != 0) acc += c.bias[oc];
      value = tflm::multiplyByQuantizedMultiplier64(acc, multipliers[oc], shifts[oc]);
    } else {
      std::uint32_t acc = sums32[at];
      if (c.biasBits != 0) acc += static_cast<std::uint32_t>(c.bias[oc]);
      value = tflm::multiplyByQuantizedMultiplier(static_cast<std::int32_t>(acc), multipliers[oc],
                                                  shifts[oc]) +
              c.outZero;
    }
    result.push_back(std::clamp(value, actMin, actMax));
  }
  return result;
}

TransposeConvCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  TransposeConvCase c;
  c.int16 = uniform(0, 2) == 0;
  c.biasBits = c.int16 ? std::array{0, 16, 64, 64}[uniform(0, 3)] : (uniform(0, 5) ? 32 : 0);
  c.batches = uniform(0, 4) ? 1 : 2;
  c.same = uniform(0, 1) == 1;
  c.filterH = uniform(1, 4);
  c.filterW = uniform(0, 2) ? c.filterH : uniform(1, 4);
  c.strideH = uniform(1, 3);
  c.strideW = uniform(0, 2) ? c.strideH : uniform(1, 3);
  c.inH = uniform(1, 5);
  c.inW = uniform(1, 5);
  // The usual output sizes (SAME: in * stride; VALID: (in - 1) * stride +
  // filter), now and then one less or more.
  auto outSize = [&](int in, int filter, int stride) {
    const int usual = c.same ? in * stride : (in - 1) * stride + filter;
    return std::max(1, usual + (uniform(0, 3) == 0 ? uniform(-1, 1) : 0));
  };
  c.outH = outSize(c.inH, c.filterH, c.strideH);
  c.outW = outSize(c.inW, c.filterW, c.strideW);
  c.inDepth = uniform(1, 5);
  c.outDepth = uniform(1, 5);
  const ir::Activation activations[] = {ir::Activation::None, ir::Activation::Relu,
                                        ir::Activation::Relu6, ir::Activation::ReluN1To1};
  c.activation = activations[uniform(0, 3)];

  c.inScale = tflm::drawScale(random, -9, -4);
  const float filterScale = tflm::drawScale(random, -9, -5);
  if (uniform(0, 3) == 0) {
    c.filterScales = {filterScale};
  } else {
    for (int oc = 0; oc < c.outDepth; ++oc) {
      c.filterScales.push_back(filterScale *
                               std::pow(4.0f, static_cast<float>(uniform(-500, 500)) / 500.0f));
    }
  }
  const int depth = c.filterH * c.filterW * c.inDepth;
  double multiplier = (c.int16 ? 0.007 : 0.01) / std::sqrt(static_cast<double>(depth));
  multiplier *= std::pow(2.0, static_cast<double>(uniform(-3000, 3000)) / 1000.0);
  if (uniform(0, 9) == 0) multiplier = std::ldexp(1.0 + uniform(0, 999) / 1000.0, uniform(0, 3));
  c.outScale = static_cast<float>(static_cast<double>(c.inScale) * filterScale / multiplier);
  if (!c.int16) {
    c.inZero = uniform(-128, 127);
    c.outZero = uniform(-128, 127);
  }
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  for (int i = 0; i < c.batches * c.inH * c.inW * c.inDepth; ++i) {
    c.input.push_back(uniform(low, high));
  }
  for (int i = 0; i < c.outDepth * c.filterH * c.filterW * c.inDepth; ++i) {
    c.filter.push_back(uniform(-127, 127));
  }
  const int biasSpread =
      c.biasBits == 16 ? 32767 : (c.int16 ? 40000 : 200) * static_cast<int>(std::sqrt(depth) + 1);
  for (int oc = 0; c.biasBits != 0 && oc < c.outDepth; ++oc) {
    c.bias.push_back(std::int64_t{uniform(-biasSpread, biasSpread)} * (c.biasBits == 64 ? 7 : 1));
  }
  return c;
}

ir::Graph graphOf(const TransposeConvCase& c) {
  const ir::DType type = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  test::GraphBuilder b;
  const int shape = b.constant<std::int32_t>("output_shape", ir::DType::Int32, {4},
                                             {c.batches, c.outH, c.outW, c.outDepth});
  const int w = b.constant("w", ir::DType::Int8, {c.outDepth, c.filterH, c.filterW, c.inDepth},
                           std::vector<std::int8_t>(c.filter.begin(), c.filter.end()),
                           c.filterScales.size() == 1 ? test::perTensor(c.filterScales[0], 0)
                                                      : test::perChannel(c.filterScales, 0));
  const int in = b.tensor("in", type, {c.batches, c.inH, c.inW, c.inDepth},
                          test::perTensor(c.inScale, c.inZero));
  std::vector<int> inputs{shape, w, in};
  if (c.biasBits == 64) {
    inputs.push_back(b.constant("bias", ir::DType::Int64, {c.outDepth}, c.bias));
  } else if (c.biasBits == 32) {
    inputs.push_back(b.constant("bias", ir::DType::Int32, {c.outDepth},
                                std::vector<std::int32_t>(c.bias.begin(), c.bias.end())));
  } else if (c.biasBits == 16) {
    inputs.push_back(b.constant("bias", ir::DType::Int16, {c.outDepth},
                                std::vector<std::int16_t>(c.bias.begin(), c.bias.end())));
  }
  const int out = b.tensor("out", type, {c.batches, c.outH, c.outW, c.outDepth},
                           test::perTensor(c.outScale, c.outZero));
  ir::TransposeConvAttrs attrs;
  attrs.padding = c.same ? ir::Padding::Same : ir::Padding::Valid;
  attrs.strideH = c.strideH;
  attrs.strideW = c.strideW;
  attrs.activation = c.activation;
  b.op(ir::OpType::TransposeConv, inputs, {out}, attrs);
  return b.inputs({in}).outputs({out}).build();
}

std::vector<std::int32_t> runLoupe(const TransposeConvCase& c) {
  const ir::Graph graph = graphOf(c);
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  if (c.int16) {
    const auto out = test::runGraph<std::int16_t>(
        graph, {test::bytesOf(std::vector<std::int16_t>(c.input.begin(), c.input.end()))});
    return {out.begin(), out.end()};
  }
  const auto out = test::runGraph<std::int8_t>(
      graph, {test::bytesOf(std::vector<std::int8_t>(c.input.begin(), c.input.end()))});
  return {out.begin(), out.end()};
}

void dump(std::ostream& out, const TransposeConvCase& c,
          const std::vector<std::int32_t>& expected) {
  out.precision(9);
  out << "transpose_conv " << (c.int16 ? 16 : 8) << ' ' << c.biasBits << ' ' << c.batches << ' '
      << c.inH << ' ' << c.inW << ' ' << c.inDepth << ' ' << c.outH << ' ' << c.outW << ' '
      << c.outDepth << ' ' << c.filterH << ' ' << c.filterW << ' ' << c.strideH << ' ' << c.strideW
      << ' ' << (c.same ? 1 : 2) << ' ' << tflm::activationCode(c.activation) << ' ' << c.inScale
      << ' ' << c.inZero << ' ' << c.outScale << ' ' << c.outZero << ' ';
  tflm::dumpValues(out, c.filterScales);
  out << ' ';
  tflm::dumpValues(out, c.bias);
  out << ' ';
  tflm::dumpValues(out, c.input);
  out << ' ';
  tflm::dumpValues(out, c.filter);
  out << '\n';
  tflm::dumpValues(out, expected);
  out << '\n';
}

}  // namespace

class TransposeConvProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(35);
    std::ofstream dumpFile;
    if (const char* file = std::getenv("LOUPE_TRANSPOSE_CONV_CASES_DUMP")) dumpFile.open(file);
    int int16 = 0, noBias = 0, int16Bias = 0, perTensor = 0, same = 0, strided = 0, unusual = 0,
        leftShift = 0, clamped = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const TransposeConvCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dumpFile.is_open()) dump(dumpFile, c, expected);
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      int16 += c.int16;
      noBias += c.biasBits == 0;
      int16Bias += c.biasBits == 16;
      perTensor += c.filterScales.size() == 1;
      same += c.same;
      strided += c.strideH > 1 || c.strideW > 1;
      unusual += c.outH != (c.same ? c.inH * c.strideH : (c.inH - 1) * c.strideH + c.filterH);
      leftShift += c.inScale * c.filterScales[0] > c.outScale;
      const auto [low, high] = tflm::activationRange(
          c.activation, c.outScale, c.outZero, c.int16 ? -32768 : -128, c.int16 ? 32767 : 127);
      clamped += std::count(expected.begin(), expected.end(), low) +
                     std::count(expected.begin(), expected.end(), high) >
                 0;
    }
    qInfo(
        "int16 %d, no bias %d, int16 bias %d, per tensor %d, SAME %d, strided %d, unusual "
        "output height %d, multiplier > 1 %d, saturated %d",
        int16, noBias, int16Bias, perTensor, same, strided, unusual, leftShift, clamped);
    // The draw reaches the branches it is meant to.
    QVERIFY(int16 > 500 && noBias > 200 && int16Bias > 100 && perTensor > 300);
    QVERIFY(same > 800 && strided > 1000 && unusual > 200 && leftShift > 100 && clamped > 1000);
  }
};

LOUPE_TEST_APPLESS_MAIN(TransposeConvProperty)

}  // namespace transpose_conv_property_test

#include "transpose_conv_property_test.moc"
