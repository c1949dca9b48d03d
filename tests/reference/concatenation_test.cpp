// CONCATENATION: element copies along an axis, as TFLite Micro does them.
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace concatenation_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

class ConcatenationTest : public QObject {
  Q_OBJECT

 private slots:
  void joinsFloatRowsAlongTheLastAxis() {
    // [[1,2],[3,4]] ++ [[5],[6]] along axis 1 -> [[1,2,5],[3,4,6]].
    GraphBuilder b;
    const int a = b.tensor("a", ir::DType::Float32, {2, 2});
    const int c = b.tensor("c", ir::DType::Float32, {2, 1});
    const int out = b.tensor("out", ir::DType::Float32, {2, 3});
    b.op(ir::OpType::Concatenation, {a, c}, {out}, ir::ConcatenationAttrs{1});
    const auto graph = b.inputs({a, c}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<float>{1, 2, 3, 4}));
    interpreter.setInput(1, bytesOf(std::vector<float>{5, 6}));
    interpreter.invoke();
    QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{1, 2, 5, 3, 4, 6}));
  }

  void negativeAxisCountsFromTheEnd() {
    // axis -2 of a rank-2 output is axis 0: rows are stacked.
    GraphBuilder b;
    const int a = b.tensor("a", ir::DType::Int32, {1, 2});
    const int c = b.constant<std::int32_t>("c", ir::DType::Int32, {2, 2}, {7, 8, 9, 10});
    const int out = b.tensor("out", ir::DType::Int32, {3, 2});
    b.op(ir::OpType::Concatenation, {a, c}, {out}, ir::ConcatenationAttrs{-2});
    const auto graph = b.inputs({a}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int32_t>{-1, -2}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int32_t>(interpreter.output(0)),
             (std::vector<std::int32_t>{-1, -2, 7, 8, 9, 10}));
  }

  void int8WithSharedQuantisationCopiesBytes() {
    // Three int8 inputs of shape [1,1,2] along axis 2 (the middle one 1 wide).
    GraphBuilder b;
    const auto q = test::perTensor(0.5f, -3);
    const int x = b.tensor("x", ir::DType::Int8, {1, 1, 2}, q);
    const int y = b.tensor("y", ir::DType::Int8, {1, 1, 1}, q);
    const int z = b.tensor("z", ir::DType::Int8, {1, 1, 2}, q);
    const int out = b.tensor("out", ir::DType::Int8, {1, 1, 5}, q);
    b.op(ir::OpType::Concatenation, {x, y, z}, {out}, ir::ConcatenationAttrs{2});
    const auto graph = b.inputs({x, y, z}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{-128, 127}));
    interpreter.setInput(1, bytesOf(std::vector<std::int8_t>{0}));
    interpreter.setInput(2, bytesOf(std::vector<std::int8_t>{5, -5}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)),
             (std::vector<std::int8_t>{-128, 127, 0, 5, -5}));
  }

  void int64AlongTheOuterAxisOfAFourDimensionalTensor() {
    GraphBuilder b;
    const int x = b.tensor("x", ir::DType::Int64, {1, 1, 1, 2});
    const int y = b.tensor("y", ir::DType::Int64, {1, 1, 1, 2});
    const int out = b.tensor("out", ir::DType::Int64, {2, 1, 1, 2});
    b.op(ir::OpType::Concatenation, {x, y}, {out}, ir::ConcatenationAttrs{0});
    const auto graph = b.inputs({x, y}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int64_t>{1LL << 40, -1}));
    interpreter.setInput(1, bytesOf(std::vector<std::int64_t>{3, 4}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int64_t>(interpreter.output(0)),
             (std::vector<std::int64_t>{1LL << 40, -1, 3, 4}));
  }

  void refusesInputsQuantisedDifferentlyFromTheOutput() {
    GraphBuilder b;
    const int x = b.tensor("x", ir::DType::Int8, {2}, test::perTensor(0.5f, 0));
    const int y = b.tensor("y", ir::DType::Int8, {2}, test::perTensor(0.25f, 0));
    const int out = b.tensor("out", ir::DType::Int8, {4}, test::perTensor(0.5f, 0));
    b.op(ir::OpType::Concatenation, {x, y}, {out}, ir::ConcatenationAttrs{0});
    const auto message = test::checkMessage(b.build());
    QVERIFY2(
        message.find("input 1 'y' (int8 [2]) is quantised with scale 0.25") != std::string::npos,
        message.c_str());
    QVERIFY2(message.find("must match") != std::string::npos, message.c_str());
  }

  void refusesFusedActivationsAndMismatchedShapes() {
    {
      GraphBuilder b;
      const int x = b.tensor("x", ir::DType::Float32, {2});
      const int out = b.tensor("out", ir::DType::Float32, {2});
      b.op(ir::OpType::Concatenation, {x}, {out}, ir::ConcatenationAttrs{0, ir::Activation::Relu});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("fused activation RELU") != std::string::npos, message.c_str());
    }
    {
      GraphBuilder b;
      const int x = b.tensor("x", ir::DType::Float32, {2, 3});
      const int y = b.tensor("y", ir::DType::Float32, {3, 3});
      const int out = b.tensor("out", ir::DType::Float32, {2, 6});
      b.op(ir::OpType::Concatenation, {x, y}, {out}, ir::ConcatenationAttrs{1});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("input 1 'y' (float32 [3,3]) differs from the output's [2,6]") !=
                   std::string::npos,
               message.c_str());
    }
    {
      GraphBuilder b;
      const int x = b.tensor("x", ir::DType::Float32, {2});
      const int out = b.tensor("out", ir::DType::Float32, {2});
      b.op(ir::OpType::Concatenation, {x}, {out}, ir::ConcatenationAttrs{1});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("axis 1 is out of range for output rank 1") != std::string::npos,
               message.c_str());
    }
    {
      GraphBuilder b;
      const int x = b.tensor("x", ir::DType::UInt8, {2});
      const int out = b.tensor("out", ir::DType::UInt8, {2});
      b.op(ir::OpType::Concatenation, {x}, {out}, ir::ConcatenationAttrs{0});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("output dtype uint8 is not supported") != std::string::npos,
               message.c_str());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(ConcatenationTest)

}  // namespace concatenation_test

#include "concatenation_test.moc"
