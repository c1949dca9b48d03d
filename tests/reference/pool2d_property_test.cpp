// Quantised AVERAGE_POOL_2D and MAX_POOL_2D on drawn cases against TFLite
// Micro's arithmetic, written here a second time from its kernels
// (pooling_common.cc's CalculateOpDataPooling, reference_integer_ops::
// AveragePool and MaxPool, TFLM commit 90b983c) and independently of Loupe's
// kernels: int8 and int16, SAME and VALID padding, filters of 1 to 5 (taller,
// wider or larger than the image), strides 1 to 3, windows clipped at every
// edge (the average divides by the elements inside the image, rounding half
// away from zero), every fused activation, one scale and zero point for
// input and output as TFLite requires. The oracle's bytes were cross-checked
// offline against TFLM's own kernels compiled outside this repository
// (LOUPE_POOL2D_CASES_DUMP=FILE writes the cases for that).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "op_graphs.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace pool2d_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct PoolCase {
  bool average = true;
  bool int16 = false;
  int batches = 1, inH = 1, inW = 1, depth = 1;
  int filterH = 1, filterW = 1, strideH = 1, strideW = 1;
  bool same = false;
  ir::Activation activation = ir::Activation::None;
  float scale = 1;
  std::int32_t zero = 0;
  std::vector<std::int32_t> input;

  int outH() const { return tflm::windowOutputSize(same, inH, filterH, strideH, 1); }
  int outW() const { return tflm::windowOutputSize(same, inW, filterW, strideW, 1); }
};

std::vector<std::int32_t> tfliteMicro(const PoolCase& c) {
  const int outH = c.outH(), outW = c.outW();
  const int padH = tflm::windowPadding(c.strideH, 1, c.inH, c.filterH, outH);
  const int padW = tflm::windowPadding(c.strideW, 1, c.inW, c.filterW, outW);
  const std::int32_t low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  const auto [actMin, actMax] = tflm::activationRange(c.activation, c.scale, c.zero, low, high);
  std::vector<std::int32_t> result;
  for (int b = 0; b < c.batches; ++b) {
    for (int oy = 0; oy < outH; ++oy) {
      for (int ox = 0; ox < outW; ++ox) {
        for (int ch = 0; ch < c.depth; ++ch) {
          const int yOrigin = oy * c.strideH - padH, xOrigin = ox * c.strideW - padW;
          // The window clipped to the image.
          const int yStart = std::max(0, -yOrigin), yEnd = std::min(c.filterH, c.inH - yOrigin);
          const int xStart = std::max(0, -xOrigin), xEnd = std::min(c.filterW, c.inW - xOrigin);
          std::int32_t sum = 0, count = 0, max = low;
          for (int fy = yStart; fy < yEnd; ++fy) {
            for (int fx = xStart; fx < xEnd; ++fx) {
              const std::int32_t v =
                  c.input[((b * c.inH + yOrigin + fy) * c.inW + xOrigin + fx) * c.depth + ch];
              sum += v;
              max = std::max(max, v);
              ++count;
            }
          }
          // Rounding half away from zero (C++ division truncates).
          const std::int32_t value =
              c.average ? (sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count) : max;
          result.push_back(std::clamp(value, actMin, actMax));
        }
      }
    }
  }
  return result;
}

PoolCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  PoolCase c;
  c.average = uniform(0, 1) == 1;
  c.int16 = uniform(0, 2) == 0;
  c.batches = uniform(0, 4) ? 1 : 2;
  c.same = uniform(0, 2) != 0;
  c.filterH = uniform(1, 5);
  c.filterW = uniform(0, 2) ? c.filterH : uniform(1, 5);
  c.strideH = uniform(1, 3);
  c.strideW = uniform(0, 2) ? c.strideH : uniform(1, 3);
  // SAME: images smaller than the filter too; VALID: at least one window.
  c.inH = c.same ? uniform(1, 9) : c.filterH + uniform(0, 6);
  c.inW = c.same ? uniform(1, 9) : c.filterW + uniform(0, 6);
  c.depth = uniform(1, 5);
  const ir::Activation activations[] = {ir::Activation::None, ir::Activation::Relu,
                                        ir::Activation::Relu6, ir::Activation::ReluN1To1};
  c.activation = activations[uniform(0, 3)];
  c.scale = tflm::drawScale(random, c.int16 ? -14 : -7, c.int16 ? -9 : -2);
  if (!c.int16) c.zero = uniform(-128, 127);
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  const int count = c.batches * c.inH * c.inW * c.depth;
  for (int i = 0; i < count; ++i) c.input.push_back(uniform(low, high));
  return c;
}

std::vector<std::int32_t> runLoupe(const PoolCase& c) {
  ir::Pool2DAttrs attrs;
  attrs.padding = c.same ? ir::Padding::Same : ir::Padding::Valid;
  attrs.filterH = c.filterH;
  attrs.filterW = c.filterW;
  attrs.strideH = c.strideH;
  attrs.strideW = c.strideW;
  attrs.activation = c.activation;
  const ir::Graph graph = test::poolOpGraph(
      c.average ? ir::OpType::AveragePool2D : ir::OpType::MaxPool2D,
      c.int16 ? ir::DType::Int16 : ir::DType::Int8, {c.batches, c.inH, c.inW, c.depth},
      {c.batches, c.outH(), c.outW(), c.depth}, attrs, test::perTensor(c.scale, c.zero));
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

void dump(std::ostream& out, const PoolCase& c, const std::vector<std::int32_t>& expected) {
  out.precision(9);
  out << (c.average ? "average_pool " : "max_pool ") << (c.int16 ? 16 : 8) << ' ' << c.batches
      << ' ' << c.inH << ' ' << c.inW << ' ' << c.depth << ' ' << c.filterH << ' ' << c.filterW
      << ' ' << c.strideH << ' ' << c.strideW << ' ' << (c.same ? 1 : 2) << ' '
      << tflm::activationCode(c.activation) << ' ' << c.scale << ' ' << c.zero << ' ';
  tflm::dumpValues(out, c.input);
  out << '\n';
  tflm::dumpValues(out, expected);
  out << '\n';
}

}  // namespace

class Pool2DProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(27);
    std::ofstream dumpFile;
    if (const char* file = std::getenv("LOUPE_POOL2D_CASES_DUMP")) dumpFile.open(file);
    int average = 0, int16 = 0, clipped = 0, oversized = 0, strided = 0, clamped = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const PoolCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dumpFile.is_open()) dump(dumpFile, c, expected);
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      average += c.average;
      int16 += c.int16;
      clipped += c.same && (tflm::windowPadding(c.strideH, 1, c.inH, c.filterH, c.outH()) > 0 ||
                            tflm::windowPadding(c.strideW, 1, c.inW, c.filterW, c.outW()) > 0);
      oversized += c.filterH > c.inH || c.filterW > c.inW;
      strided += c.strideH > 1 || c.strideW > 1;
      const auto [low, high] = tflm::activationRange(
          c.activation, c.scale, c.zero, c.int16 ? -32768 : -128, c.int16 ? 32767 : 127);
      clamped += std::count(expected.begin(), expected.end(), low) +
                     std::count(expected.begin(), expected.end(), high) >
                 0;
    }
    qInfo(
        "average %d, max %d, int16 %d, clipped windows %d, filter larger than the image %d, "
        "strided %d, saturated %d",
        average, kCases - average, int16, clipped, oversized, strided, clamped);
    // The draw reaches the branches it is meant to.
    QVERIFY(average > 400 && kCases - average > 400 && int16 > 250);
    QVERIFY(clipped > 300 && oversized > 100 && strided > 400 && clamped > 400);
  }
};

LOUPE_TEST_APPLESS_MAIN(Pool2DProperty)

}  // namespace pool2d_property_test

#include "pool2d_property_test.moc"
