// STRIDED_SLICE with TFLite Micro's index rules: negative indices count from
// the end, indices are clamped to the axis, masks replace begin/end, and
// shrunk axes leave the output shape.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace strided_slice_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

namespace {

struct Slice {
  ir::Shape inputShape;
  std::vector<std::int32_t> begin, end, strides;
  ir::StridedSliceAttrs attrs;
  ir::Shape outputShape;
};

ir::Graph sliceGraph(const Slice& s, ir::DType dtype = ir::DType::Int32) {
  GraphBuilder b;
  const auto n = static_cast<std::int32_t>(s.begin.size());
  const int in = b.tensor("in", dtype, s.inputShape);
  const int begin = b.constant("begin", ir::DType::Int32, {n}, s.begin);
  const int end = b.constant("end", ir::DType::Int32, {n}, s.end);
  const int strides = b.constant("strides", ir::DType::Int32, {n}, s.strides);
  const int out = b.tensor("out", dtype, s.outputShape);
  b.op(ir::OpType::StridedSlice, {in, begin, end, strides}, {out}, s.attrs);
  return b.inputs({in}).outputs({out}).build();
}

// Runs the slice over an int32 input holding 0, 1, 2, ... in row-major order.
std::vector<std::int32_t> sliceIota(const Slice& s) {
  const auto graph = sliceGraph(s);
  std::vector<std::int32_t> input(static_cast<std::size_t>(ir::elementCount(s.inputShape)));
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::int32_t>(i);
  reference::ReferenceInterpreter interpreter(graph);
  interpreter.setInput(0, bytesOf(input));
  interpreter.invoke();
  return valuesOf<std::int32_t>(interpreter.output(0));
}

ir::StridedSliceAttrs masks(int begin, int end, int shrink) {
  ir::StridedSliceAttrs attrs;
  attrs.beginMask = begin;
  attrs.endMask = end;
  attrs.shrinkAxisMask = shrink;
  return attrs;
}

}  // namespace

class StridedSliceTest : public QObject {
  Q_OBJECT

 private slots:
  void stepsForwardWithAStride() {
    // 0..7 from 1 to 7 (exclusive) by 2: 1, 3, 5.
    QCOMPARE(sliceIota({{8}, {1}, {7}, {2}, {}, {3}}), (std::vector<std::int32_t>{1, 3, 5}));
  }

  void negativeIndicesAndOutOfRangeEndsAreClampedPerAxis() {
    // begin -3 is 5; end 100 clamps to 8: 5, 6, 7.
    QCOMPARE(sliceIota({{8}, {-3}, {100}, {1}, {}, {3}}), (std::vector<std::int32_t>{5, 6, 7}));
  }

  void walksBackwardWithANegativeStride() {
    // begin -1 is 3, end 0 is exclusive: 3, 2, 1.
    QCOMPARE(sliceIota({{4}, {-1}, {0}, {-1}, {}, {3}}), (std::vector<std::int32_t>{3, 2, 1}));
    // With the end mask the walk runs to the start: 3, 2, 1, 0.
    QCOMPARE(sliceIota({{4}, {-1}, {0}, {-1}, masks(0, 1, 0), {4}}),
             (std::vector<std::int32_t>{3, 2, 1, 0}));
  }

  void beginMaskIgnoresTheBeginValue() {
    // begin 5 is replaced by 0 under the mask: 0, 1, 2.
    QCOMPARE(sliceIota({{6}, {5}, {3}, {1}, masks(1, 0, 0), {3}}),
             (std::vector<std::int32_t>{0, 1, 2}));
  }

  void slicesRowsAndEveryOtherColumnOfAMatrix() {
    // 3x4 matrix 0..11, rows 1..2, columns 0 and 2: 4, 6, 8, 10.
    QCOMPARE(sliceIota({{3, 4}, {1, 0}, {3, 4}, {1, 2}, {}, {2, 2}}),
             (std::vector<std::int32_t>{4, 6, 8, 10}));
  }

  void shrinkAxisDropsDimensions() {
    // Shrinking axis 0 at row 2 of the 3x4 matrix gives the row [8, 9, 10, 11].
    QCOMPARE(sliceIota({{3, 4}, {2, 0}, {3, 4}, {1, 1}, masks(0, 0, 1), {4}}),
             (std::vector<std::int32_t>{8, 9, 10, 11}));
    // Shrinking both axes at (1, -1) picks the scalar at row 1, column 3: 7.
    // The end values do not matter for shrunk axes.
    QCOMPARE(sliceIota({{3, 4}, {1, -1}, {0, 0}, {1, 1}, masks(0, 0, 3), {}}),
             (std::vector<std::int32_t>{7}));
  }

  void fourDimensionalSliceWithMixedMasks() {
    // Input [2,2,2,3] = 0..23. Axis 0: begin mask, end 1 -> index 0. Axis 1:
    // shrink at -1 -> index 1. Axis 2: end mask from 1 -> index 1. Axis 3:
    // from 2 back to 0 by -2 (end mask) -> indices 2, 0. Offsets: 0*12 +
    // 1*6 + 1*3 + {2, 0} = 11, 9.
    QCOMPARE(sliceIota({{2, 2, 2, 3},
                        {7, -1, 1, 2},
                        {1, 0, 0, 0},
                        {1, 1, 1, -2},
                        masks(0b0001, 0b1100, 0b0010),
                        {1, 1, 2}}),
             (std::vector<std::int32_t>{11, 9}));
  }

  void int8AndFloatCopyTheSameElements() {
    Slice s{{5}, {4}, {0}, {-2}, {}, {2}};  // indices 4, 2
    {
      const auto graph = sliceGraph(s, ir::DType::Int8);
      reference::ReferenceInterpreter interpreter(graph);
      interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{-128, -1, 0, 1, 127}));
      interpreter.invoke();
      QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), (std::vector<std::int8_t>{127, 0}));
    }
    {
      const auto graph = sliceGraph(s, ir::DType::Float32);
      reference::ReferenceInterpreter interpreter(graph);
      interpreter.setInput(0, bytesOf(std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f, 4.5f}));
      interpreter.invoke();
      QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{4.5f, 2.5f}));
    }
  }

  void refusesMasksAndAttributesTfliteMicroIgnores() {
    Slice ellipsis{{4}, {0}, {4}, {1}, {}, {4}};
    ellipsis.attrs.ellipsisMask = 1;
    auto message = test::checkMessage(sliceGraph(ellipsis));
    QVERIFY2(
        message.find("ellipsis_mask 1 / new_axis_mask 0 are not supported") != std::string::npos,
        message.c_str());

    Slice newAxis{{4}, {0}, {4}, {1}, {}, {1, 4}};
    newAxis.attrs.newAxisMask = 1;
    message = test::checkMessage(sliceGraph(newAxis));
    QVERIFY2(message.find("new_axis_mask 1") != std::string::npos, message.c_str());

    Slice offset{{4}, {1}, {2}, {1}, {}, {2}};
    offset.attrs.offset = true;
    message = test::checkMessage(sliceGraph(offset));
    QVERIFY2(message.find("offset=true is not supported") != std::string::npos, message.c_str());
  }

  void refusesBadOperands() {
    auto message = test::checkMessage(sliceGraph({{4}, {0}, {4}, {0}, {}, {4}}));
    QVERIFY2(message.find("stride of axis 0 is 0") != std::string::npos, message.c_str());

    message = test::checkMessage(sliceGraph({{4}, {0}, {4}, {1}, {}, {3}}));
    QVERIFY2(message.find("gives [4] but output 'out' has shape [3]") != std::string::npos,
             message.c_str());

    message = test::checkMessage(sliceGraph({{2, 2}, {0}, {2}, {1}, {}, {2, 2}}));
    QVERIFY2(message.find("begin/end/strides have 1/1/1 entries (expected 2") != std::string::npos,
             message.c_str());

    message = test::checkMessage(sliceGraph({{3}, {3}, {0}, {1}, masks(0, 0, 1), {}}));
    QVERIFY2(message.find("shrunk axis 0 has begin 3 outside [-3, 3)") != std::string::npos,
             message.c_str());

    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {4});
    const int begin = b.tensor("begin", ir::DType::Int32, {1});
    const int end = b.constant<std::int32_t>("end", ir::DType::Int32, {1}, {4});
    const int strides = b.constant<std::int32_t>("strides", ir::DType::Int32, {1}, {1});
    const int out = b.tensor("out", ir::DType::Float32, {4});
    b.op(ir::OpType::StridedSlice, {in, begin, end, strides}, {out}, ir::StridedSliceAttrs{});
    message = test::checkMessage(b.build());
    QVERIFY2(message.find("begin operand 'begin' must be a constant int32 tensor (found "
                          "non-constant int32)") != std::string::npos,
             message.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(StridedSliceTest)

}  // namespace strided_slice_test

#include "strided_slice_test.moc"
