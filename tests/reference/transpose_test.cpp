// TRANSPOSE: output dimension k is input dimension perm[k].
#include <QtTest>

#include "graph_builder.h"
#include "reference/reference_interpreter.h"
#include "single_op_harness.h"
#include "test_group.h"

namespace transpose_test {

using namespace loupe;
using loupe::test::bytesOf;
using loupe::test::GraphBuilder;
using loupe::test::valuesOf;

class TransposeTest : public QObject {
  Q_OBJECT

 private slots:
  void swapsTheAxesOfAMatrix() {
    // [[0,1,2],[3,4,5]] transposed is [[0,3],[1,4],[2,5]].
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Float32, {2, 3});
    const int perm = b.constant<std::int32_t>("perm", ir::DType::Int32, {2}, {1, 0});
    const int out = b.tensor("out", ir::DType::Float32, {3, 2});
    b.op(ir::OpType::Transpose, {in, perm}, {out});
    const auto graph = b.inputs({in}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<float>{0, 1, 2, 3, 4, 5}));
    interpreter.invoke();
    QCOMPARE(valuesOf<float>(interpreter.output(0)), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  }

  void rotatesThreeAxesOfInt16() {
    // Input [2,3,2] holds value 100*i + 10*j + k at (i,j,k). With perm
    // [2,0,1] the output [2,2,3] holds at (k,i,j) that same value.
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int16, {2, 3, 2});
    const int perm = b.constant<std::int32_t>("perm", ir::DType::Int32, {3}, {2, 0, 1});
    const int out = b.tensor("out", ir::DType::Int16, {2, 2, 3});
    b.op(ir::OpType::Transpose, {in, perm}, {out});
    const auto graph = b.inputs({in}).outputs({out}).build();
    std::vector<std::int16_t> input;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 2; ++k)
          input.push_back(static_cast<std::int16_t>(100 * i + 10 * j + k));
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(input));
    interpreter.invoke();
    const std::vector<std::int16_t> expected{0, 10, 20, 100, 110, 120, 1, 11, 21, 101, 111, 121};
    QCOMPARE(valuesOf<std::int16_t>(interpreter.output(0)), expected);
  }

  void fiveDimensionalInt8() {
    // Reversing the axes of [1,2,1,3,1]: output [1,3,1,2,1]; element (0,a,0,b,0)
    // of the input lands at (0,b,0,a,0).
    GraphBuilder b;
    const int in = b.tensor("in", ir::DType::Int8, {1, 2, 1, 3, 1});
    const int perm = b.constant<std::int32_t>("perm", ir::DType::Int32, {5}, {4, 3, 2, 1, 0});
    const int out = b.tensor("out", ir::DType::Int8, {1, 3, 1, 2, 1});
    b.op(ir::OpType::Transpose, {in, perm}, {out});
    const auto graph = b.inputs({in}).outputs({out}).build();
    reference::ReferenceInterpreter interpreter(graph);
    interpreter.setInput(0, bytesOf(std::vector<std::int8_t>{1, 2, 3, 4, 5, 6}));
    interpreter.invoke();
    QCOMPARE(valuesOf<std::int8_t>(interpreter.output(0)),
             (std::vector<std::int8_t>{1, 4, 2, 5, 3, 6}));
  }

  void refusesBadPermutations() {
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2, 3});
      const int perm = b.constant<std::int32_t>("perm", ir::DType::Int32, {2}, {1, 1});
      const int out = b.tensor("out", ir::DType::Float32, {3, 3});
      b.op(ir::OpType::Transpose, {in, perm}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("perm [1,1] is not a permutation of 0..1") != std::string::npos,
               message.c_str());
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2, 3});
      const int perm = b.constant<std::int32_t>("perm", ir::DType::Int32, {3}, {0, 1, 2});
      const int out = b.tensor("out", ir::DType::Float32, {2, 3});
      b.op(ir::OpType::Transpose, {in, perm}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("has shape [3] (expected [2]") != std::string::npos, message.c_str());
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::Float32, {2, 3});
      const int perm = b.tensor("perm", ir::DType::Int32, {2});
      const int out = b.tensor("out", ir::DType::Float32, {3, 2});
      b.op(ir::OpType::Transpose, {in, perm}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("perm operand 'perm' is not a constant") != std::string::npos,
               message.c_str());
    }
    {
      GraphBuilder b;
      const int in = b.tensor("in", ir::DType::UInt8, {2, 3});
      const int perm = b.constant<std::int32_t>("perm", ir::DType::Int32, {2}, {1, 0});
      const int out = b.tensor("out", ir::DType::UInt8, {3, 2});
      b.op(ir::OpType::Transpose, {in, perm}, {out});
      const auto message = test::checkMessage(b.build());
      QVERIFY2(message.find("input dtype uint8 is not supported") != std::string::npos,
               message.c_str());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(TransposeTest)

}  // namespace transpose_test

#include "transpose_test.moc"
