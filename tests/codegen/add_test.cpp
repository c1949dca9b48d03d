// ADD, SUB and MUL through TIR and generated C, byte for byte against the
// reference interpreter: int8, int16, float32 and int32, equal shapes and
// every kind of broadcast, fused activations, constant operands; and every
// TFLM SEANet ADD case against its golden output.
#include <QtTest>

#include <limits>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace add_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

struct Shapes {
  const char* name;
  ir::Shape a, b, out;
};

const Shapes kShapes[] = {
    {"equal", {2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},
    {"last dimension", {2, 3, 4, 5}, {5}, {2, 3, 4, 5}},
    {"inner ones", {2, 3, 4, 5}, {2, 1, 4, 1}, {2, 3, 4, 5}},
    {"scalar first", {1}, {3, 7}, {3, 7}},
    {"both broadcast", {4, 1}, {1, 5}, {4, 5}},
    {"rank 6", {2, 1, 3, 1, 2, 2}, {1, 2, 3, 2, 1, 2}, {2, 2, 3, 2, 2, 2}},
    {"one element", {1, 1}, {1}, {1, 1}},
};

ir::Quantization quantization(ir::DType dtype, int which, ir::OpType type) {
  if (dtype == ir::DType::Int8) {
    if (which == 0) return test::perTensor(0.05f, -3);
    if (which == 1) return test::perTensor(0.08f, 10);
    return type == ir::OpType::Mul ? test::perTensor(0.2f, -5) : test::perTensor(0.1f, 2);
  }
  if (dtype == ir::DType::Int16) {
    if (which == 0) return test::perTensor(0.001f, 0);
    if (which == 1) return test::perTensor(0.0015f, 0);
    return type == ir::OpType::Mul ? test::perTensor(0.02f, 0) : test::perTensor(0.002f, 0);
  }
  return {};
}

ir::Graph binaryGraph(ir::OpType type, ir::DType dtype, const Shapes& s,
                      ir::Activation activation = ir::Activation::None) {
  GraphBuilder g;
  const int a = g.tensor("a", dtype, s.a, quantization(dtype, 0, type));
  const int b = g.tensor("b", dtype, s.b, quantization(dtype, 1, type));
  const int out = g.tensor("out", dtype, s.out, quantization(dtype, 2, type));
  ir::ElementwiseAttrs attrs;
  attrs.activation = activation;
  g.op(type, {a, b}, {out}, attrs);
  return g.inputs({a, b}).outputs({out}).build();
}

// input + constant (a scalar, or one value per channel).
ir::Graph constantOperandGraph(ir::OpType type, ir::DType dtype, bool scalar) {
  GraphBuilder g;
  const int a = g.tensor("a", dtype, {3, 6}, quantization(dtype, 0, type));
  const ir::Shape shape = scalar ? ir::Shape{} : ir::Shape{6};
  const std::size_t count = scalar ? 1 : 6;
  int b = 0;
  if (dtype == ir::DType::Float32) {
    b = g.constant("b", dtype, shape, std::vector<float>(count, 0.375f));
  } else if (dtype == ir::DType::Int8) {
    std::vector<std::int8_t> values;
    for (std::size_t i = 0; i < count; ++i)
      values.push_back(static_cast<std::int8_t>(-50 + 23 * i));
    b = g.constant("b", dtype, shape, values, quantization(dtype, 1, type));
  } else {
    std::vector<std::int16_t> values;
    for (std::size_t i = 0; i < count; ++i)
      values.push_back(static_cast<std::int16_t>(-9000 + 4000 * i));
    b = g.constant("b", dtype, shape, values, quantization(dtype, 1, type));
  }
  const int out = g.tensor("out", dtype, {3, 6}, quantization(dtype, 2, type));
  g.op(type, {a, b}, {out}, ir::ElementwiseAttrs{});
  return g.inputs({a}).outputs({out}).build();
}

// input (op) constant, float32, the constant holding `value` (infinite or
// NaN: the generated C must spell it with <math.h>'s macros).
ir::Graph nonFiniteConstantGraph(ir::OpType type, float value, bool scalar) {
  GraphBuilder g;
  const int a = g.tensor("a", ir::DType::Float32, {2, 4});
  const ir::Shape shape = scalar ? ir::Shape{} : ir::Shape{4};
  std::vector<float> values(scalar ? 1 : 4, value);
  if (!scalar) values[1] = 0.5f;  // a table with a finite entry beside it
  const int b = g.constant("b", ir::DType::Float32, shape, values);
  const int out = g.tensor("out", ir::DType::Float32, {2, 4});
  g.op(type, {a, b}, {out}, ir::ElementwiseAttrs{});
  return g.inputs({a}).outputs({out}).build();
}

const char* typeName(ir::OpType type) {
  return type == ir::OpType::Add ? "add" : type == ir::OpType::Sub ? "sub" : "mul";
}

}  // namespace

class ElementwiseBinaryCodegen : public QObject {
  Q_OBJECT

  std::vector<test::SeanetCase> seanet_ = test::seanetCasesOf("add");

 private slots:
  void nonFiniteConstantsCompile() {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const bool scalar : {true, false}) {
      for (const auto& [type, value] :
           {std::pair{ir::OpType::Add, inf}, std::pair{ir::OpType::Mul, -inf},
            std::pair{ir::OpType::Sub, inf}, std::pair{ir::OpType::Add, nan},
            std::pair{ir::OpType::Mul, nan}}) {
        const ir::Graph graph = nonFiniteConstantGraph(type, value, scalar);
        const std::string difference = test::differenceFromReference(graph);
        QVERIFY2(difference.empty(), (std::string(typeName(type)) + ": " + difference).c_str());
      }
    }
  }

  void matchesReference_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("shapes");
    QTest::addColumn<int>("activation");
    for (ir::OpType type : {ir::OpType::Add, ir::OpType::Sub, ir::OpType::Mul}) {
      for (auto [dtype, dtypeName] :
           {std::pair{ir::DType::Int8, "int8"}, std::pair{ir::DType::Int16, "int16"},
            std::pair{ir::DType::Float32, "float32"}, std::pair{ir::DType::Int32, "int32"}}) {
        for (std::size_t i = 0; i < std::size(kShapes); ++i) {
          const std::string row =
              std::string(typeName(type)) + " " + dtypeName + " " + kShapes[i].name;
          QTest::newRow(row.c_str())
              << static_cast<int>(type) << static_cast<int>(dtype) << static_cast<int>(i)
              << static_cast<int>(ir::Activation::None);
        }
        for (auto [activation, activationName] :
             {std::pair{ir::Activation::Relu, "relu"}, std::pair{ir::Activation::Relu6, "relu6"},
              std::pair{ir::Activation::ReluN1To1, "relu_n1_to_1"}}) {
          if (dtype == ir::DType::Int32 && type == ir::OpType::Add) continue;  // none applied
          const std::string row =
              std::string(typeName(type)) + " " + dtypeName + " " + activationName;
          QTest::newRow(row.c_str()) << static_cast<int>(type) << static_cast<int>(dtype) << 2
                                     << static_cast<int>(activation);
        }
      }
    }
  }

  void matchesReference() {
    QFETCH(int, type);
    QFETCH(int, dtype);
    QFETCH(int, shapes);
    QFETCH(int, activation);
    const ir::Graph graph = binaryGraph(
        static_cast<ir::OpType>(type), static_cast<ir::DType>(dtype),
        kShapes[static_cast<std::size_t>(shapes)], static_cast<ir::Activation>(activation));
    const std::string difference = test::differenceFromReference(graph, {1, 2, 3});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void constantOperandsMatchReference_data() {
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<bool>("scalar");
    for (ir::OpType type : {ir::OpType::Add, ir::OpType::Sub, ir::OpType::Mul}) {
      for (auto [dtype, dtypeName] :
           {std::pair{ir::DType::Int8, "int8"}, std::pair{ir::DType::Int16, "int16"},
            std::pair{ir::DType::Float32, "float32"}}) {
        for (bool scalar : {true, false}) {
          const std::string row = std::string(typeName(type)) + " " + dtypeName +
                                  (scalar ? " constant scalar" : " constant vector");
          QTest::newRow(row.c_str()) << static_cast<int>(type) << static_cast<int>(dtype) << scalar;
        }
      }
    }
  }

  void constantOperandsMatchReference() {
    QFETCH(int, type);
    QFETCH(int, dtype);
    QFETCH(bool, scalar);
    const ir::Graph graph =
        constantOperandGraph(static_cast<ir::OpType>(type), static_cast<ir::DType>(dtype), scalar);
    const std::string difference = test::differenceFromReference(graph);
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void equalShapesAreOneFlatLoop() {
    const ir::Graph graph = binaryGraph(ir::OpType::Add, ir::DType::Int8, kShapes[0]);
    const std::string tir = tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
    QVERIFY2(tir.find("for i0 in range(120)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("for i1") == std::string::npos, tir.c_str());
  }

  void broadcastOperandIsRescaledOutsideTheInnerLoop() {
    // [2,3,4,5] + [2,1,4,1]: b changes with the row of 5, so its rescaled
    // value is bound before the innermost loop.
    const ir::Graph graph = binaryGraph(ir::OpType::Add, ir::DType::Int8, kShapes[2]);
    const std::string tir = tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
    const auto rhs =
        tir.find("rhs: T.int32 = T.call_intrin(\"int32\", \"loupe.add_sub_rescale_input\"");
    const auto innermost = tir.find("for i3");
    QVERIFY2(rhs != std::string::npos && innermost != std::string::npos && rhs < innermost,
             tir.c_str());
  }

  void constantScalarIsRescaledAtCompileTime() {
    const ir::Graph graph = constantOperandGraph(ir::OpType::Add, ir::DType::Int8, true);
    const std::string tir = tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
    QCOMPARE(static_cast<int>(tir.find("input2")), -1);
    int calls = 0;
    for (std::size_t at = tir.find("add_sub_rescale_input"); at != std::string::npos;
         at = tir.find("add_sub_rescale_input", at + 1)) {
      ++calls;
    }
    QCOMPARE(calls, 1);
  }

  void seanetAddMatchesGolden_data() {
    QTest::addColumn<int>("index");
    QVERIFY(!seanet_.empty());
    for (std::size_t i = 0; i < seanet_.size(); ++i) {
      QTest::newRow(seanet_[i].name.c_str()) << static_cast<int>(i);
    }
  }

  void seanetAddMatchesGolden() {
    QFETCH(int, index);
    const std::string difference =
        test::differenceFromGolden(seanet_[static_cast<std::size_t>(index)]);
    QVERIFY2(difference.empty(), difference.c_str());
  }
};

LOUPE_TEST_APPLESS_MAIN(ElementwiseBinaryCodegen)

}  // namespace add_test

#include "add_test.moc"
