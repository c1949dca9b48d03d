// STRIDED_SLICE through TIR and generated C, byte for byte against the
// reference interpreter: every element type the reference kernel accepts
// (float32, int8, int16, int32, bool), ranks 1 to 5, negative and clamped
// indices, positive and negative strides, begin/end masks, shrink-axis masks
// (down to a scalar) and empty results. A slice with stride 1 on the inner
// dimensions copies contiguous runs. A slice TFLite Micro would not write
// completely (a shrunk axis with a negative stride) is refused.
#include <QtTest>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "ops/strided_slice_plan.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace strided_slice_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct SliceCase {
  const char* name;
  ir::DType dtype;
  ir::Shape shape;
  std::vector<std::int32_t> begin, end, strides;
  int beginMask = 0, endMask = 0, shrinkMask = 0;
};

const SliceCase kCases[] = {
    {"float32 rank 1 stride 2", ir::DType::Float32, {8}, {1}, {7}, {2}},
    {"float32 rank 1 clamped", ir::DType::Float32, {6}, {-100}, {100}, {1}},
    {"int8 rank 1 reversed", ir::DType::Int8, {8}, {-1}, {0}, {-1}, 0, 1},
    {"int8 rank 1 stride -3 both masks", ir::DType::Int8, {10}, {4}, {4}, {-3}, 1, 1},
    {"bool rank 1 stride 3", ir::DType::Bool, {11}, {1}, {11}, {3}},
    {"int16 rank 2 every other column", ir::DType::Int16, {3, 4}, {1, 0}, {3, 4}, {1, 2}},
    {"int32 rank 2 both reversed", ir::DType::Int32, {5, 6}, {-1, -1}, {0, 0}, {-2, -1}, 0, 3},
    {"int32 rank 2 whole", ir::DType::Int32, {5, 6}, {0, 0}, {5, 6}, {1, 1}},
    {"bool rank 3 shrink first",
     ir::DType::Bool,
     {3, 4, 5},
     {1, 0, 0},
     {2, 4, 5},
     {1, 1, 1},
     0,
     0,
     1},
    {"int8 rank 4 rows of whole pixels",
     ir::DType::Int8,
     {1, 8, 8, 16},
     {0, 2, 1, 0},
     {1, 6, 7, 16},
     {1, 1, 1, 1}},
    {"int8 rank 4 inner channels",
     ir::DType::Int8,
     {2, 4, 4, 8},
     {0, 0, 0, 2},
     {2, 4, 4, 6},
     {1, 1, 1, 1}},
    {"int8 rank 4 negative begin mask",
     ir::DType::Int8,
     {2, 5, 6, 3},
     {1, -2, 5, 0},
     {0, -5, 0, 3},
     {1, -1, -2, 1},
     0b0001,
     0b0100},
    {"float32 rank 4 mixed masks",
     ir::DType::Float32,
     {2, 2, 2, 3},
     {7, -1, 1, 2},
     {1, 0, 0, 0},
     {1, 1, 1, -2},
     0b0001,
     0b1100,
     0b0010},
    {"int16 rank 4 shrink last",
     ir::DType::Int16,
     {2, 3, 4, 5},
     {0, 0, 1, -2},
     {2, 3, 4, 0},
     {1, 2, 1, 1},
     0,
     0,
     0b1000},
    {"int16 rank 5",
     ir::DType::Int16,
     {2, 3, 4, 3, 5},
     {0, 1, -1, 0, 4},
     {2, 3, 0, 3, 0},
     {1, 1, -2, 1, -1},
     0b00001,
     0b10000},
    {"int32 rank 5 shrink three axes",
     ir::DType::Int32,
     {3, 2, 4, 2, 6},
     {2, 0, -3, 0, 1},
     {3, 2, 4, 1, 6},
     {1, 1, 1, 1, 2},
     0,
     0,
     0b10101},
    {"float32 rank 5 shrink to a scalar",
     ir::DType::Float32,
     {2, 3, 1, 2, 4},
     {1, 2, 0, 1, -1},
     {0, 0, 0, 0, 0},
     {1, 1, 1, 1, 1},
     0,
     0,
     0b11111},
    {"int8 shrink under begin mask",
     ir::DType::Int8,
     {4, 3},
     {2, 1},
     {3, 3},
     {1, 1},
     0b01,
     0,
     0b01},
    {"int8 empty result", ir::DType::Int8, {5, 2}, {3, 0}, {1, 2}, {1, 1}},
};

ir::StridedSliceAttrs attrsOf(const SliceCase& c) {
  ir::StridedSliceAttrs attrs;
  attrs.beginMask = c.beginMask;
  attrs.endMask = c.endMask;
  attrs.shrinkAxisMask = c.shrinkMask;
  return attrs;
}

ir::Quantization quantizationOf(ir::DType dtype) {
  if (dtype == ir::DType::Int8) return test::perTensor(0.5f, -1);
  if (dtype == ir::DType::Int16) return test::perTensor(0.01f, 0);
  return {};
}

// The output shape comes from the reference's own shape rule, so the graph
// is valid by construction and the test is about the values.
ir::Graph sliceGraph(const SliceCase& c) {
  GraphBuilder g;
  const ir::Quantization q = quantizationOf(c.dtype);
  const auto n = static_cast<int>(c.begin.size());
  const int in = g.tensor("in", c.dtype, c.shape, q);
  const int begin = g.constant("begin", ir::DType::Int32, {n}, c.begin);
  const int end = g.constant("end", ir::DType::Int32, {n}, c.end);
  const int strides = g.constant("strides", ir::DType::Int32, {n}, c.strides);
  const auto shape =
      reference::stridedSliceOutputShape(c.shape, c.begin, c.end, c.strides, attrsOf(c));
  const int out = g.tensor("out", c.dtype, shape.shape, q);
  g.op(ir::OpType::StridedSlice, {in, begin, end, strides}, {out}, attrsOf(c));
  return g.inputs({in}).outputs({out}).build();
}

std::string tirOf(const ir::Graph& graph) {
  return tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
}

}  // namespace

class StridedSliceCodegen : public QObject {
  Q_OBJECT

 private slots:
  void matchesReference_data() {
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < std::size(kCases); ++i) {
      QTest::newRow(kCases[i].name) << static_cast<int>(i);
    }
  }

  void matchesReference() {
    QFETCH(int, index);
    const SliceCase& c = kCases[static_cast<std::size_t>(index)];
    const ir::Graph graph = sliceGraph(c);
    const std::string difference = test::differenceFromReference(graph, {1, 2});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void innerStrideOneCopiesContiguousRuns() {
    // [1,8,8,16] rows 2..5, columns 1..6, every channel: each of the 4 rows
    // is one run of 6 * 16 elements.
    const std::string tir = tirOf(sliceGraph(kCases[9]));
    QVERIFY2(tir.find("for i0 in range(4)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("for i1 in range(96)") != std::string::npos, tir.c_str());
    QVERIFY2(
        tir.find("output[(i0 * 96) + i1] = input[((i0 * 128) + i1) + 272]") != std::string::npos,
        tir.c_str());
  }

  void wholeTensorIsOneFlatCopy() {
    const std::string tir = tirOf(sliceGraph(kCases[7]));
    QVERIFY2(tir.find("for i0 in range(30)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("i1") == std::string::npos, tir.c_str());
  }

  void negativeStrideWalksBackwards() {
    // Every other row from the last (12 elements back per output row), every
    // column reversed (the unrolled row reads 29, 28, ... 24 from its base).
    const std::string tir = tirOf(sliceGraph(kCases[6]));
    QVERIFY2(tir.find("output[i0 * 6] = input[(i0 * -12) + 29]") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("output[(i0 * 6) + 5] = input[(i0 * -12) + 24]") != std::string::npos,
             tir.c_str());
  }

  void shrunkAxisWithNegativeStrideIsRefused() {
    // TFLite Micro visits nothing on such an axis and leaves the output as
    // it was; the reference does the same, generated code cannot.
    const SliceCase c{"", ir::DType::Int8, {4, 3}, {1, 0}, {2, 3}, {-1, 1}, 0, 0, 0b01};
    try {
      codegen::compileToC(sliceGraph(c), {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      const std::string what = error.what();
      QVERIFY2(what.find("#0 STRIDED_SLICE: TFLite Micro's walk visits 0 input elements but "
                         "output [3] has 3") != std::string::npos,
               what.c_str());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(StridedSliceCodegen)

}  // namespace strided_slice_test

#include "strided_slice_test.moc"
