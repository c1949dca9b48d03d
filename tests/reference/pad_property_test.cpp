// Quantised PAD and PADV2 on drawn cases against TFLite Micro's semantics,
// written here a second time from its kernel (pad_common.cc's PadPrepare,
// pad.cc's choice of pad value, reference_ops::Pad, TFLM commit 90b983c)
// and independently of Loupe's kernels: int8 and int16, ranks 1 to 5,
// paddings of 0 to 3 on either side of every axis, PAD (int8 pads with the
// output zero point, int16 with 0) and PADV2 (the constant operand). The
// oracle's bytes were cross-checked offline against TFLM's own kernel
// compiled outside this repository (LOUPE_PAD_CASES_DUMP=FILE writes the
// cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>
#include <functional>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace pad_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct PadCase {
  bool v2 = false, int16 = false;
  ir::Shape shape;
  std::vector<std::int32_t> paddings;  // before, after per axis
  std::int32_t zero = 0, constant = 0;
  std::vector<std::int32_t> input;

  ir::Shape outShape() const {
    ir::Shape out;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      out.push_back(shape[d] + paddings[2 * d] + paddings[2 * d + 1]);
    }
    return out;
  }
};

std::vector<std::int32_t> tfliteMicro(const PadCase& c) {
  // pad.cc: PADV2's constant, else the output zero point for int8 and 0
  // for int16.
  const std::int32_t value = c.v2 ? c.constant : (c.int16 ? 0 : c.zero);
  const ir::Shape out = c.outShape();
  const int rank = static_cast<int>(out.size());
  std::vector<std::int32_t> result;
  std::vector<int> index(rank);
  std::function<void(int)> walk = [&](int axis) {
    if (axis == rank) {
      std::int64_t at = 0;
      for (int d = 0; d < rank; ++d) {
        const int i = index[d] - c.paddings[2 * d];
        if (i < 0 || i >= c.shape[d]) {
          result.push_back(value);
          return;
        }
        at = at * c.shape[d] + i;
      }
      result.push_back(c.input[static_cast<std::size_t>(at)]);
      return;
    }
    for (index[axis] = 0; index[axis] < out[axis]; ++index[axis]) walk(axis + 1);
  };
  walk(0);
  return result;
}

PadCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  PadCase c;
  c.v2 = uniform(0, 1) == 1;
  c.int16 = uniform(0, 2) == 0;
  const int rank = uniform(1, 5);
  for (int d = 0; d < rank; ++d) {
    c.shape.push_back(uniform(1, rank > 3 ? 3 : 5));
    c.paddings.push_back(uniform(0, 2) == 0 ? 0 : uniform(0, 3));
    c.paddings.push_back(uniform(0, 2) == 0 ? 0 : uniform(0, 3));
  }
  if (rank == 4 && uniform(0, 1)) {  // an image: batch and channels unpadded
    c.paddings[0] = c.paddings[1] = c.paddings[6] = c.paddings[7] = 0;
  }
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  if (!c.int16) c.zero = uniform(-128, 127);
  c.constant = uniform(low, high);
  std::int64_t count = 1;
  for (auto d : c.shape) count *= d;
  for (std::int64_t i = 0; i < count; ++i) c.input.push_back(uniform(low, high));
  return c;
}

std::vector<std::int32_t> runLoupe(const PadCase& c) {
  const ir::DType type = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  const ir::Quantization quant = test::perTensor(0.05f, c.zero);
  test::GraphBuilder b;
  const int rank = static_cast<int>(c.shape.size());
  const int in = b.tensor("in", type, c.shape, quant);
  const int paddings = b.constant("paddings", ir::DType::Int32, {rank, 2}, c.paddings);
  std::vector<int> inputs{in, paddings};
  if (c.v2 && c.int16) {
    inputs.push_back(b.constant("value", type, {1},
                                std::vector<std::int16_t>{static_cast<std::int16_t>(c.constant)},
                                quant));
  } else if (c.v2) {
    inputs.push_back(b.constant(
        "value", type, {1}, std::vector<std::int8_t>{static_cast<std::int8_t>(c.constant)}, quant));
  }
  const int out = b.tensor("out", type, c.outShape(), quant);
  b.op(c.v2 ? ir::OpType::PadV2 : ir::OpType::Pad, inputs, {out});
  const ir::Graph graph = b.inputs({in}).outputs({out}).build();
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  if (c.int16) {
    const auto values = test::runGraph<std::int16_t>(
        graph, {test::bytesOf(std::vector<std::int16_t>(c.input.begin(), c.input.end()))});
    return {values.begin(), values.end()};
  }
  const auto values = test::runGraph<std::int8_t>(
      graph, {test::bytesOf(std::vector<std::int8_t>(c.input.begin(), c.input.end()))});
  return {values.begin(), values.end()};
}

}  // namespace

class PadProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(39);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_PAD_CASES_DUMP")) dump.open(file);
    int v2 = 0, int16 = 0, rank5 = 0, imageStyle = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const PadCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump << (c.v2 ? "padv2 " : "pad ") << (c.int16 ? 16 : 8) << ' ' << c.zero << ' '
             << c.constant << ' ';
        tflm::dumpValues(dump, std::vector<std::int32_t>(c.shape.begin(), c.shape.end()));
        dump << ' ';
        tflm::dumpValues(dump, c.paddings);
        dump << ' ';
        tflm::dumpValues(dump, c.input);
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      v2 += c.v2;
      int16 += c.int16;
      rank5 += c.shape.size() == 5;
      // TFLM's "image style" category: 4-D without batch or channel padding.
      imageStyle += c.shape.size() == 4 && c.paddings[0] == 0 && c.paddings[1] == 0 &&
                    c.paddings[6] == 0 && c.paddings[7] == 0;
    }
    qInfo("PADV2 %d, int16 %d, rank 5 %d, image style %d", v2, int16, rank5, imageStyle);
    // The draw reaches the branches it is meant to.
    QVERIFY(v2 > 800 && kCases - v2 > 800 && int16 > 500 && rank5 > 300 && imageStyle > 150);
  }
};

LOUPE_TEST_APPLESS_MAIN(PadProperty)

}  // namespace pad_property_test

#include "pad_property_test.moc"
