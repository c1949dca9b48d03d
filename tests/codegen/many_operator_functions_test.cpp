// A model of 300 operator functions (more than the 255 a one-byte registry
// count allowed) compiles, its function registry counts them in two bytes,
// and the generated C, built with the strict C99 flags and run natively, is
// bit-exact against the reference interpreter.
#include <QtTest>

#include "deploy/host_build.h"
#include "generated_c_harness.h"
#include "graph_builder.h"

using namespace loupe;

namespace {

// Past both old limits: the one-byte count (255) and the 4095-character
// string literal the names were (about 130 names). 2,000 works the same
// (measured), but building 2,000 C files takes minutes.
constexpr int kOperators = 300;

// x -> ADD c0 -> ADD c1 -> ... : int8, each constant different, so each
// ADD is a function of its own.
ir::Graph longChain() {
  test::GraphBuilder g;
  int previous = g.tensor("x", ir::DType::Int8, {1, 4}, test::perTensor(0.05f, -3));
  const int input = previous;
  for (int i = 0; i < kOperators; ++i) {
    const std::vector<std::int8_t> values = {static_cast<std::int8_t>(i % 7 - 3),
                                             static_cast<std::int8_t>(i % 5 - 2), 1, -1};
    const int constant = g.constant("c" + std::to_string(i), ir::DType::Int8, {4}, values,
                                    test::perTensor(0.02f, 0));
    const int out = g.tensor("y" + std::to_string(i), ir::DType::Int8, {1, 4},
                             test::perTensor(i % 2 == 0 ? 0.06f : 0.05f, i % 2 == 0 ? 1 : -3));
    g.op(ir::OpType::Add, {previous, constant}, {out}, ir::ElementwiseAttrs{});
    previous = out;
  }
  return g.inputs({input}).outputs({previous}).build();
}

}  // namespace

class ManyOperatorFunctions : public QObject {
  Q_OBJECT

 private slots:
  void theRegistryCountsThemInTwoBytes() {
    const codegen::CompiledModel model = codegen::compileToC(longChain(), {});
    QCOMPARE(model.functions.size(), std::size_t{kOperators});
    bool found = false;
    for (const auto& source : model.sources) {
      // 300 = 0x012C: bytes 0x2C, 0x01, as octal escapes.
      if (source.name.ends_with("_registry.c")) {
        found = source.text.find("_function_names[] = {\n    '\\54', '\\1', /* 300") !=
                std::string::npos;
      }
    }
    QVERIFY(found);
  }

  void theyRunBitExact() {
    const ir::Graph graph = longChain();
    const codegen::CompiledModel model = codegen::compileToC(graph, {});
    deploy::HostBuildOptions options;
    options.cacheRoot = test::codegenCacheRoot();
    options.flags = {"-O0"};  // 300 files: the strict flags matter here, not speed
    const deploy::HostBuild build = deploy::buildHostExecutable(model, options);
    for (std::uint32_t seed : {1u, 2u}) {
      const auto inputs = test::randomInputs(graph, seed);
      const auto actual = deploy::runHostExecutable(build, model, inputs);
      const auto expected = test::runReference(graph, inputs);
      QCOMPARE(actual.size(), std::size_t{1});
      const std::string difference = test::firstDifference(actual[0], expected[0]);
      QVERIFY2(difference.empty(), difference.c_str());
    }
  }
};

QTEST_APPLESS_MAIN(ManyOperatorFunctions)
#include "many_operator_functions_test.moc"
