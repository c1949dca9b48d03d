// A model of 300 operator functions (2,000 in codegen_2000_operator_functions),
// more than the 255 a one-byte registry count allowed, compiles, its function
// registry counts them in two bytes,
// and the generated C, built with the strict C99 flags and run natively, is
// bit-exact against the reference interpreter.
#include <QtTest>

#include <cstdio>
#include <string>

#include "deploy/host_build.h"
#include "generated_c_harness.h"
#include "graph_builder.h"
#include "test_group.h"

namespace many_operator_functions_test {

using namespace loupe;

namespace {

// Past both old limits: the one-byte count (255) and the 4095-character
// string literal the names were (about 130 names). codegen_2000_operator_
// functions (label scale, outside the default run: building 2,000 C files
// takes minutes) builds the same test with 2,000.
#ifndef LOUPE_MANY_OPERATORS
#define LOUPE_MANY_OPERATORS 300
#endif
constexpr int kOperators = LOUPE_MANY_OPERATORS;

// A byte as the registry prints it: an octal escape in a character literal.
std::string octalLiteral(int byte) {
  char text[8];
  std::snprintf(text, sizeof text, "'\\%o'", byte);
  return text;
}

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
    // The count in two bytes, low first (300 = 0x012C: '\54', '\1').
    const std::string count = "_function_names[] = {\n    " + octalLiteral(kOperators & 0xFF) +
                              ", " + octalLiteral(kOperators >> 8) + ", /* " +
                              std::to_string(kOperators);
    bool found = false;
    for (const auto& source : model.sources) {
      if (source.name.ends_with("_registry.c"))
        found = source.text.find(count) != std::string::npos;
    }
    QVERIFY2(found, count.c_str());
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

LOUPE_TEST_APPLESS_MAIN(ManyOperatorFunctions)

}  // namespace many_operator_functions_test

#include "many_operator_functions_test.moc"
