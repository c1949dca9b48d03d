// TRANSPOSE through TIR and generated C, byte for byte against the reference
// interpreter: every permutation of a 4-D tensor for each element type the
// reference kernel accepts (float32, int8, int16), ranks 1, 2, 3 and 5,
// shapes with length-1 dimensions and a constant input. The loops are what
// the data needs: an identity permutation is one flat copy, NHWC -> NCHW two
// loops, and the innermost loop steps by 1 in one of the buffers. A
// permutation that is not a constant is refused with the reference kernel's
// reason.
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <regex>

#include "codegen_checks.h"
#include "graph_builder.h"
#include "lowering/lowering_support.h"
#include "test_group.h"
#include "tir/tir_printer.h"

namespace transpose_test {

using namespace loupe;
using loupe::test::GraphBuilder;

namespace {

const ir::DType kTypes[] = {ir::DType::Float32, ir::DType::Int8, ir::DType::Int16};

ir::Quantization quantizationOf(ir::DType dtype) {
  if (dtype == ir::DType::Int8) return test::perTensor(0.5f, 3);
  if (dtype == ir::DType::Int16) return test::perTensor(0.01f, 0);
  return {};
}

ir::Graph transposeGraph(ir::DType dtype, const ir::Shape& shape,
                         const std::vector<std::int32_t>& perm) {
  GraphBuilder g;
  const ir::Quantization q = quantizationOf(dtype);
  const int in = g.tensor("in", dtype, shape, q);
  const int permTensor =
      g.constant("perm", ir::DType::Int32, {static_cast<int>(perm.size())}, perm);
  ir::Shape outShape;
  for (std::int32_t p : perm) outShape.push_back(shape[static_cast<std::size_t>(p)]);
  const int out = g.tensor("out", dtype, outShape, q);
  g.op(ir::OpType::Transpose, {in, permTensor}, {out});
  return g.inputs({in}).outputs({out}).build();
}

// CONCATENATION(TRANSPOSE(constant [3,4,2] by 1,2,0), in [4,2,3]): the
// transpose reads a constant emitted with its function.
ir::Graph transposedConstantGraph() {
  GraphBuilder g;
  const ir::Quantization q = quantizationOf(ir::DType::Int16);
  const int weights = g.constant("weights", ir::DType::Int16, {3, 4, 2},
                                 test::randomValues<std::int16_t>(24, -32768, 32767, 5), q);
  const int perm = g.constant("perm", ir::DType::Int32, {3}, std::vector<std::int32_t>{1, 2, 0});
  const int transposed = g.tensor("transposed", ir::DType::Int16, {4, 2, 3}, q);
  const int in = g.tensor("in", ir::DType::Int16, {4, 2, 3}, q);
  const int out = g.tensor("out", ir::DType::Int16, {8, 2, 3}, q);
  g.op(ir::OpType::Transpose, {weights, perm}, {transposed});
  g.op(ir::OpType::Concatenation, {transposed, in}, {out}, ir::ConcatenationAttrs{0});
  return g.inputs({in}).outputs({out}).build();
}

std::string permName(const std::vector<std::int32_t>& perm) {
  std::string name;
  for (std::int32_t p : perm) name += std::to_string(p);
  return name;
}

struct TransposeCase {
  const char* name;
  ir::Shape shape;
  std::vector<std::int32_t> perm;
};

const TransposeCase kOtherRanks[] = {
    {"rank 1", {17}, {0}},
    {"rank 2", {5, 7}, {1, 0}},
    {"rank 2 identity", {5, 7}, {0, 1}},
    {"rank 3 rotate", {3, 4, 6}, {2, 0, 1}},
    {"rank 3 swap last", {2, 5, 3}, {0, 2, 1}},
    {"rank 3 length-1 middle", {4, 1, 6}, {2, 1, 0}},
    {"rank 4 NHWC to NCHW", {1, 6, 5, 3}, {0, 3, 1, 2}},
    {"rank 4 NCHW to NHWC", {2, 3, 4, 5}, {0, 2, 3, 1}},
    {"rank 4 length-1 dimensions", {1, 3, 1, 5}, {3, 2, 0, 1}},
    {"rank 5 reverse", {2, 3, 2, 4, 3}, {4, 3, 2, 1, 0}},
    {"rank 5 mixed", {2, 3, 2, 4, 3}, {1, 3, 0, 4, 2}},
    {"rank 5 keeps inner pair", {3, 2, 2, 4, 5}, {2, 0, 1, 3, 4}},
    {"rank 4 empty", {2, 0, 3, 4}, {3, 1, 0, 2}},
};

std::string tirOf(const ir::Graph& graph) {
  return tir::printPrimFunc(codegen::compileToC(graph, {}).functions.at(0));
}

int loopCount(const std::string& tir) {
  static const std::regex loop(R"(\bfor \w+ in )");
  return static_cast<int>(
      std::distance(std::sregex_iterator(tir.begin(), tir.end(), loop), std::sregex_iterator()));
}

}  // namespace

class TransposeCodegen : public QObject {
  Q_OBJECT

 private slots:
  void everyFourDimensionalPermutationMatchesReference_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<QString>("perm");
    for (ir::DType dtype : kTypes) {
      std::vector<std::int32_t> perm = {0, 1, 2, 3};
      do {
        const std::string name = std::string(ir::dtypeName(dtype)) + " " + permName(perm);
        QTest::newRow(name.c_str())
            << static_cast<int>(dtype) << QString::fromStdString(permName(perm));
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
  }

  void everyFourDimensionalPermutationMatchesReference() {
    QFETCH(int, dtype);
    QFETCH(QString, perm);
    std::vector<std::int32_t> p;
    for (QChar c : perm) p.push_back(c.digitValue());
    const ir::Graph graph = transposeGraph(static_cast<ir::DType>(dtype), {2, 3, 4, 5}, p);
    const std::string difference = test::differenceFromReference(graph, {1});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void otherRanksMatchReference_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("dtype");
    for (std::size_t i = 0; i < std::size(kOtherRanks); ++i) {
      for (ir::DType dtype : kTypes) {
        const std::string name =
            std::string(kOtherRanks[i].name) + " " + std::string(ir::dtypeName(dtype));
        QTest::newRow(name.c_str()) << static_cast<int>(i) << static_cast<int>(dtype);
      }
    }
  }

  void otherRanksMatchReference() {
    QFETCH(int, index);
    QFETCH(int, dtype);
    const TransposeCase& c = kOtherRanks[static_cast<std::size_t>(index)];
    const ir::Graph graph = transposeGraph(static_cast<ir::DType>(dtype), c.shape, c.perm);
    const std::string difference = test::differenceFromReference(graph, {2});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void constantInputMatchesReference() {
    const ir::Graph graph = transposedConstantGraph();
    const std::string difference = test::differenceFromReference(graph, {1});
    QVERIFY2(difference.empty(), difference.c_str());
  }

  void identityIsOneFlatCopy() {
    const std::string tir = tirOf(transposeGraph(ir::DType::Int8, {3, 4, 5}, {0, 1, 2}));
    QCOMPARE(loopCount(tir), 1);
    QVERIFY2(tir.find("in range(60)") != std::string::npos, tir.c_str());
  }

  void nhwcToNchwIsTwoLoops() {
    // H and W stay adjacent and in order: one 30-long axis against C = 3.
    // The channel loop steps 30 in the output, the pixel loop 1 (writes)
    // and 3 (reads): the pixel loop is innermost.
    const std::string tir = tirOf(transposeGraph(ir::DType::Int8, {1, 6, 5, 3}, {0, 3, 1, 2}));
    QCOMPARE(loopCount(tir), 2);
    QVERIFY2(tir.find("for i0 in range(3)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("for i1 in range(30)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("output[(i0 * 30) + i1] = input[i0 + (i1 * 3)]") != std::string::npos,
             tir.c_str());
  }

  void innermostLoopStepsByOne() {
    // [2,3,4,5] -> perm 3,1,0,2 (no dimensions merge). The innermost loop is
    // the output's last dimension (4 long, stepping 1 in the output and 5 in
    // the input, unrolled), not the input's (5 long, stepping 1 in the input
    // but 24 in the output), which comes next.
    const std::string tir = tirOf(transposeGraph(ir::DType::Float32, {2, 3, 4, 5}, {3, 1, 0, 2}));
    QCOMPARE(loopCount(tir), 3);
    QVERIFY2(tir.find("for i2 in range(5)") != std::string::npos, tir.c_str());
    QVERIFY2(tir.find("output[(((i0 * 4) + (i1 * 8)) + (i2 * 24)) + 3] = "
                      "input[(((i0 * 60) + (i1 * 20)) + i2) + 15]") != std::string::npos,
             tir.c_str());
  }

  void nonConstantPermutationIsRefused() {
    GraphBuilder g;
    const int in = g.tensor("in", ir::DType::Int8, {2, 3}, test::perTensor(0.5f, 0));
    const int perm = g.tensor("perm", ir::DType::Int32, {2});
    const int out = g.tensor("out", ir::DType::Int8, {3, 2}, test::perTensor(0.5f, 0));
    g.op(ir::OpType::Transpose, {in, perm}, {out});
    const ir::Graph graph = g.inputs({in, perm}).outputs({out}).build();
    try {
      codegen::compileToC(graph, {});
      QFAIL("expected a LoweringError");
    } catch (const lowering::LoweringError& error) {
      QVERIFY2(std::string(error.what())
                       .find("#0 TRANSPOSE: perm operand 'perm' is not a "
                             "constant") != std::string::npos,
               error.what());
    }
  }
};

LOUPE_TEST_APPLESS_MAIN(TransposeCodegen)

}  // namespace transpose_test

#include "transpose_test.moc"
