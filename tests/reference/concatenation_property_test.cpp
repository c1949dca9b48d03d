// CONCATENATION on drawn cases against TFLite Micro's semantics, written
// here a second time (concatenation.cc, reference_ops::Concatenation, TFLM
// commit 90b983c) and independently of Loupe's kernel: int8 and int16, 1 to
// 10 inputs (TFLM's most), ranks 1 to 5, every axis given positive or
// negative, inputs of extent 1 along it; quantisation shared by the inputs
// and the output (TFLM copies without requantising). The oracle's bytes were
// cross-checked offline against TFLM's own kernel compiled outside this
// repository (LOUPE_CONCATENATION_CASES_DUMP=FILE writes the cases).
#include <QtTest>

#include <cstdlib>
#include <fstream>

#include "graph_builder.h"
#include "single_op_harness.h"
#include "test_group.h"
#include "tflm_oracle.h"

namespace concatenation_property_test {

using namespace loupe;
namespace tflm = loupe::test::tflm;

namespace {

struct ConcatCase {
  bool int16 = false;
  int axis = 0;  // as written in the model (may be negative)
  ir::Shape outShape;
  std::vector<ir::Shape> shapes;
  std::vector<std::vector<std::int32_t>> inputs;
};

std::vector<std::int32_t> tfliteMicro(const ConcatCase& c) {
  const int rank = static_cast<int>(c.outShape.size());
  const int axis = c.axis < 0 ? c.axis + rank : c.axis;
  std::int64_t outer = 1;
  for (int d = 0; d < axis; ++d) outer *= c.outShape[d];
  std::vector<std::int32_t> result;
  // For each outer index, each input's block of axis extent x inner size.
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < c.shapes.size(); ++i) {
      std::int64_t block = 1;
      for (int d = axis; d < rank; ++d) block *= c.shapes[i][d];
      for (std::int64_t k = 0; k < block; ++k) {
        result.push_back(c.inputs[i][static_cast<std::size_t>(o * block + k)]);
      }
    }
  }
  return result;
}

ConcatCase drawCase(std::mt19937& random) {
  auto uniform = [&random](int lo, int hi) { return tflm::uniform(random, lo, hi); };
  ConcatCase c;
  c.int16 = uniform(0, 2) == 0;
  const int rank = uniform(1, 5);
  for (int d = 0; d < rank; ++d) c.outShape.push_back(uniform(1, rank > 3 ? 3 : 4));
  const int axis = uniform(0, rank - 1);
  c.axis = uniform(0, 2) == 0 ? axis - rank : axis;
  const int count = uniform(0, 3) == 0 ? uniform(5, 10) : uniform(1, 4);
  c.outShape[axis] = 0;
  const int low = c.int16 ? -32768 : -128, high = c.int16 ? 32767 : 127;
  for (int i = 0; i < count; ++i) {
    ir::Shape shape = c.outShape;
    shape[axis] = uniform(0, 2) == 0 ? 1 : uniform(1, 4);
    c.outShape[axis] += shape[axis];
    std::int64_t elements = 1;
    for (auto d : shape) elements *= d;
    std::vector<std::int32_t> values;
    for (std::int64_t k = 0; k < elements; ++k) values.push_back(uniform(low, high));
    c.shapes.push_back(shape);
    c.inputs.push_back(values);
  }
  return c;
}

std::vector<std::int32_t> runLoupe(const ConcatCase& c) {
  const ir::DType type = c.int16 ? ir::DType::Int16 : ir::DType::Int8;
  const ir::Quantization quant = test::perTensor(0.0625f, c.int16 ? 0 : -3);
  test::GraphBuilder b;
  std::vector<int> ins;
  for (std::size_t i = 0; i < c.shapes.size(); ++i) {
    ins.push_back(b.tensor("in" + std::to_string(i), type, c.shapes[i], quant));
  }
  const int out = b.tensor("out", type, c.outShape, quant);
  ir::ConcatenationAttrs attrs;
  attrs.axis = c.axis;
  b.op(ir::OpType::Concatenation, ins, {out}, attrs);
  const ir::Graph graph = b.inputs(ins).outputs({out}).build();
  if (auto reason = test::checkReason(graph)) throw std::runtime_error(*reason);
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const auto& values : c.inputs) {
    if (c.int16) {
      bytes.push_back(test::bytesOf(std::vector<std::int16_t>(values.begin(), values.end())));
    } else {
      bytes.push_back(test::bytesOf(std::vector<std::int8_t>(values.begin(), values.end())));
    }
  }
  if (c.int16) {
    const auto values = test::runGraph<std::int16_t>(graph, bytes);
    return {values.begin(), values.end()};
  }
  const auto values = test::runGraph<std::int8_t>(graph, bytes);
  return {values.begin(), values.end()};
}

}  // namespace

class ConcatenationProperty : public QObject {
  Q_OBJECT

 private slots:
  void drawnCasesMatchTfliteMicro() {
    std::mt19937 random(41);
    std::ofstream dump;
    if (const char* file = std::getenv("LOUPE_CONCATENATION_CASES_DUMP")) dump.open(file);
    int int16 = 0, negativeAxis = 0, manyInputs = 0, innerAxis = 0;
    constexpr int kCases = 2000;
    for (int n = 0; n < kCases; ++n) {
      const ConcatCase c = drawCase(random);
      const auto expected = tfliteMicro(c);
      if (dump.is_open()) {
        dump << "concatenation " << (c.int16 ? 16 : 8) << ' ' << c.axis << ' ' << c.shapes.size();
        for (std::size_t i = 0; i < c.shapes.size(); ++i) {
          dump << ' ';
          tflm::dumpValues(dump, std::vector<std::int32_t>(c.shapes[i].begin(), c.shapes[i].end()));
          dump << ' ';
          tflm::dumpValues(dump, c.inputs[i]);
        }
        dump << '\n';
        tflm::dumpValues(dump, expected);
        dump << '\n';
      }
      if (const auto wrong = tflm::mismatch(expected, [&] { return runLoupe(c); });
          !wrong.empty()) {
        QFAIL(qPrintable(QString("case %1: %2").arg(n).arg(QString::fromStdString(wrong))));
      }
      int16 += c.int16;
      negativeAxis += c.axis < 0;
      manyInputs += c.shapes.size() >= 5;
      innerAxis += (c.axis < 0 ? c.axis + static_cast<int>(c.outShape.size()) : c.axis) > 0;
    }
    qInfo("int16 %d, negative axis %d, 5-10 inputs %d, axis past the first %d", int16, negativeAxis,
          manyInputs, innerAxis);
    // The draw reaches the branches it is meant to.
    QVERIFY(int16 > 500 && negativeAxis > 500 && manyInputs > 350 && innerAxis > 800);
  }
};

LOUPE_TEST_APPLESS_MAIN(ConcatenationProperty)

}  // namespace concatenation_property_test

#include "concatenation_property_test.moc"
