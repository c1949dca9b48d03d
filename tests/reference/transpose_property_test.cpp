// TRANSPOSE on drawn cases against TFLite Micro's semantics, written here a
// second time (transpose.cc, reference_ops::Transpose, TFLM commit 90b983c)
// and independently of Loupe's kernel: int8 and int16, ranks 1 to 5
// (TransposePrepare's most), every kind of permutation (identity, swaps,
// rotations, reversals) and axes of size 1. Output axis i takes input axis
// perm[i]. The oracle's bytes were cross-checked offline against TFLM's own
// kernel compiled outside this repository (LOUPE_TRANSPOSE_CASES_DUMP=FILE
// writes the cases).
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace transpose_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct TransposeCase {
  bool int16 = false;
  ir::Shape shape;
  std::vector<std::int32_t> perm;
  std::vector<std::int32_t> input;

  ir::Shape outShape() const {
    ir::Shape out;
    for (std::int32_t axis : perm) out.push_back(shape[static_cast<std::size_t>(axis)]);
    return out;
  }
};

std::vector<std::int32_t> tfliteMicro(const TransposeCase& c) {
  const int rank = static_cast<int>(c.shape.size());
  const ir::Shape out = c.outShape();
  // The input's row-major strides, read along the permuted axes.
  std::vector<std::int64_t> stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * c.shape[d + 1];
  std::vector<std::int32_t> result;
  std::function<void(int, std::int64_t)> walk = [&](int axis, std::int64_t at) {
    if (axis == rank) {
      result.push_back(c.input[static_cast<std::size_t>(at)]);
      return;
    }
    for (int i = 0; i < out[axis]; ++i) walk(axis + 1, at + i * stride[c.perm[axis]]);
  };
  walk(0, 0);
  return result;
}

TransposeCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  TransposeCase c;
  c.int16 = uniform(0, 2) == 0;
  const int rank = uniform(1, 5);
  for (int d = 0; d < rank; ++d)
    c.shape.push_back(uniform(0, 4) == 0 ? 1 : uniform(2, rank > 3 ? 4 : 5));
  for (int d = 0; d < rank; ++d) c.perm.push_back(d);
  switch (uniform(0, 3)) {
    case 0:  // identity
      break;
    case 1:  // reversed
      std::reverse(c.perm.begin(), c.perm.end());
      break;
    case 2:  // rotated
      std::rotate(c.perm.begin(), c.perm.begin() + uniform(0, rank - 1), c.perm.end());
      break;
    default:
      std::shuffle(c.perm.begin(), c.perm.end(), random);
  }
  std::int64_t count = 1;
  for (auto d : c.shape) count *= d;
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  for (std::int64_t i = 0; i < count; ++i) c.input.push_back(uniform(low, high));
  return c;
}

std::vector<std::int32_t> runLoupe(const TransposeCase& c) {
  const ir::DType type = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  test::GraphBuilder b;
  const int in = b.tensor("in", type, c.shape, test::perTensor(0.1f, 0));
  const int perm =
      b.constant("perm", ir::DType::Int32, {static_cast<std::int32_t>(c.perm.size())}, c.perm);
  const int out = b.tensor("out", type, c.outShape(), test::perTensor(0.1f, 0));
  b.op(ir::OpType::Transpose, {in, perm}, {out});
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

class TransposeProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(40);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_TRANSPOSE_CASES_DUMP")) dump.open(file);
    int int16 = 0, rank5 = 0, shuffled = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const TransposeCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump << "transpose " << (c.int16 ? 16 : 8) << ' ';
        tflm::dumpValues(dump, std::vector<std::int32_t>(c.shape.begin(), c.shape.end()));
        dump << ' ';
        tflm::dumpValues(dump, c.perm);
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
      int16 += c.int16;
      rank5 += c.shape.size() == 5;
      shuffled += !std::is_sorted(c.perm.begin(), c.perm.end());
    }
    qInfo("int16 %d, rank 5 %d, not the identity %d", int16, rank5, shuffled);
    // The draw reaches the branches it is meant to.
    QVERIFY(int16 > 500 && rank5 > 300 && shuffled > 800);
  }
};

LOUPE_TEST_APPLESS_MAIN(TransposeProperty)

}  // namespace transpose_property_test

#include "transpose_property_test.moc"
