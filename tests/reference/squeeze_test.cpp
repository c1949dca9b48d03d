// SQUEEZE and EXPAND_DIMS: shape-only operators whose bytes pass through.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace squeeze_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

class SqueezeTest : public QObject {
  Q_OBJECT

 private slots:
  void withoutDimensionsRemovesEverySizeOneDimension() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {1, 3, 1, 2});
    const int out = b.tensor("out", ir::DType::Int16, {3, 2});
    b.op(ir::OpType::Squeeze, {in}, {out}, ir::SqueezeAttrs{});
    const auto graph = b.inputs({in}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    const std::vector<std::int16_t> values{1, -2, 300, -32768, 32767, 6};
    interpreter.setInput(0, bytesOf(values));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int16_t>(interpreter.output(0)), values);
  }

  void negativeSqueezeDimensionsCountFromTheEnd() {
    // Squeezing only dimension -2 of [1,3,1,2] keeps the leading 1.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 3, 1, 2});
    const int out = b.tensor("out", ir::DType::Float32, {1, 3, 2});
    b.op(ir::OpType::Squeeze, {in}, {out}, ir::SqueezeAttrs{{-2}});
    QCOMPARE(test::checkMessage(b.build()), std::string());
  }

  void refusesSqueezingADimensionLargerThanOne() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {1, 3});
    const int out = b.tensor("out", ir::DType::Float32, {1});
    b.op(ir::OpType::Squeeze, {in}, {out}, ir::SqueezeAttrs{{1}});
    const auto message = test::checkMessage(b.build());
    QVERIFY2(message.find("squeeze dimension 1 has size 3") != std::string::npos, message.c_str());
  }

  void refusesAnOutputShapeThatIsNotTheSqueezedInput() {
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 4, 1});
    const int out = b.tensor("out", ir::DType::Int8, {2, 2});
    b.op(ir::OpType::Squeeze, {in}, {out}, ir::SqueezeAttrs{});
    const auto message = test::checkMessage(b.build());
    QVERIFY2(message.find("gives [4] but output 'out' has shape [2,2]") != std::string::npos,
             message.c_str());
  }

  void expandDimsInsertsAOneAtTheAxis() {
    // axis -1 on a rank-2 input inserts at position 2 (rank + 1 + axis).
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {2, 2});
    const int axis = b.constant<std::int32_t>("axis", ir::DType::Int32, {1}, {-1});
    const int out = b.tensor("out", ir::DType::Int8, {2, 2, 1});
    b.op(ir::OpType::ExpandDims, {in, axis}, {out});
    const auto graph = b.inputs({in}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    const std::vector<std::int8_t> values{-128, 0, 1, 127};
    interpreter.setInput(0, bytesOf(values));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)), values);
  }

  void expandDimsRefusesAWrongOutputShapeOrAxis() {
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2, 3});
      const int axis = b.constant<std::int32_t>("axis", ir::DType::Int32, {}, {0});
      const int out = b.tensor("out", ir::DType::Float32, {2, 1, 3});
      b.op(ir::OpType::ExpandDims, {in, axis}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(
          message.find("gives [1,2,3] but output 'out' has shape [2,1,3]") != std::string::npos,
          message.c_str());
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2, 3});
      const int axis = b.constant<std::int32_t>("axis", ir::DType::Int32, {}, {3});
      const int out = b.tensor("out", ir::DType::Float32, {2, 3, 1});
      b.op(ir::OpType::ExpandDims, {in, axis}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("axis 3 is out of range for input shape [2,3]") != std::string::npos,
               message.c_str());
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2, 3});
      const int axis = b.tensor("axis", ir::DType::Int32, {});
      const int out = b.tensor("out", ir::DType::Float32, {2, 3, 1});
      b.op(ir::OpType::ExpandDims, {in, axis}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("is not a constant") != std::string::npos, message.c_str());
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2});
      const int axis = b.constant<std::int64_t>("axis", ir::DType::Int64, {}, {0});
      const int out = b.tensor("out", ir::DType::Float32, {1, 2});
      b.op(ir::OpType::ExpandDims, {in, axis}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("has dtype int64 (expected int32)") != std::string::npos,
               message.c_str());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(SqueezeTest)

}  // namespace squeeze_test

#include "squeeze_test.moc"
