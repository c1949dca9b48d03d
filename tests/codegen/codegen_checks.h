// What the per-operator codegen tests share: comparing generated C with the
// reference interpreter on random inputs (once, or over several runs for
// operators with state), cutting one operator of a real model out as a graph
// of its own, and running a TFLM SEANet per-layer case through generated C.
#pragma once

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "codegen/model_compiler.h"
#include "frontend/tflite_importer.h"
#include "generated_c_harness.h"
#include "golden_sets.h"
#include "ir/graph.h"

namespace loupe::test {

// "" when the generated C and the reference give the same bytes for every
// seed's random inputs, else the seed, output and first difference.
inline std::string differenceFromReference(const ir::Graph& graph,
                                           std::initializer_list<std::uint32_t> seeds = {1, 2}) {
  for (std::uint32_t seed : seeds) {
    const auto inputs = randomInputs(graph, seed);
    const auto expected = runReference(graph, inputs);
    const auto actual = runGeneratedC(graph, inputs);
    if (actual.size() != expected.size()) return "output count differs";
    for (std::size_t i = 0; i < actual.size(); ++i) {
      const std::string difference = firstDifference(actual[i], expected[i]);
      if (!difference.empty()) {
        return "seed " + std::to_string(seed) + ", output " + std::to_string(i) + ": " + difference;
      }
    }
  }
  return {};
}

// "" when the generated C, run `runs` times in one process (operator state
// carried over; reset before run `resetBefore` when >= 0), gives the same
// bytes on every run as the reference interpreter invoked as often, with
// random inputs of seeds 1, 2, ... (or `firstRunsRepeat` runs' inputs again:
// run k >= firstRunsRepeat gets run k - firstRunsRepeat's inputs); else the
// run, output and first difference.
inline std::string differenceOverInvocations(const ir::Graph& graph, int runs, int resetBefore = -1,
                                             int firstRunsRepeat = 0) {
  std::vector<Invocation> invocations;
  for (int run = 0; run < runs; ++run) {
    invocations.push_back(firstRunsRepeat > 0 && run >= firstRunsRepeat
                              ? invocations[static_cast<std::size_t>(run - firstRunsRepeat)]
                              : randomInputs(graph, static_cast<std::uint32_t>(run + 1)));
  }
  const auto expected = runReferenceInvocations(graph, invocations, resetBefore);
  const auto actual = runGeneratedCInvocations(graph, invocations, resetBefore);
  for (std::size_t run = 0; run < expected.size(); ++run) {
    for (std::size_t i = 0; i < expected[run].size(); ++i) {
      const std::string difference = firstDifference(actual.at(run).at(i), expected[run][i]);
      if (!difference.empty()) {
        return "run " + std::to_string(run) + ", output " + std::to_string(i) + ": " + difference;
      }
    }
  }
  return {};
}

// QVERIFY that generated C and reference agree on `seed`'s random inputs.
inline void expectMatchesReference(const ir::Graph& graph, std::uint32_t seed) {
  const std::string difference = differenceFromReference(graph, {seed});
  QVERIFY2(difference.empty(), difference.c_str());
}

// n integers uniform in [lo, hi] (weights, biases of built graphs).
template <typename T>
std::vector<T> randomValues(std::size_t n, std::int64_t lo, std::int64_t hi, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::int64_t> value(lo, hi);
  std::vector<T> out(n);
  for (auto& v : out) v = static_cast<T>(value(random));
  return out;
}

// n floats uniform in [-1, 1).
inline std::vector<float> randomFloats(std::size_t n, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> out(n);
  for (auto& v : out) v = value(random);
  return out;
}

// Operator `opIndex` of `model` as a graph of its own: every tensor kept
// (indices unchanged), its non-constant inputs as the model inputs and its
// outputs as the model outputs.
inline ir::Graph oneOperatorGraph(const ir::Graph& model, int opIndex) {
  ir::Graph graph;
  graph.name = model.name + "_op" + std::to_string(opIndex);
  graph.tensors = model.tensors;
  ir::Operator op = model.operators.at(static_cast<std::size_t>(opIndex));
  op.index = 0;
  for (int t : op.inputs) {
    if (t != ir::kNoTensor && !graph.tensor(t).isConstant) graph.inputs.push_back(t);
  }
  graph.outputs = op.outputs;
  graph.operators.push_back(std::move(op));
  return graph;
}

// Index of the first operator of `type` in `model`, or -1.
inline int firstOperatorOf(const ir::Graph& model, ir::OpType type) {
  for (const ir::Operator& op : model.operators) {
    if (op.type == type) return op.index;
  }
  return -1;
}

// "" when the generated C of a SEANet case gives its golden int16 output.
inline std::string differenceFromGolden(const SeanetCase& c) {
  const ir::Graph graph = frontend::importTfliteFile(c.model);
  const auto actual = runGeneratedC(graph, c.inputBytes());
  if (actual.size() != 1) return "expected one output";
  return firstDifference(actual[0], c.expectedBytes());
}

// The SEANet cases of one operator folder ("add", "pad").
inline std::vector<SeanetCase> seanetCasesOf(const std::string& folder) {
  std::vector<SeanetCase> cases;
  for (auto& c : seanetCases()) {
    if (c.name.rfind(folder + "/", 0) == 0) cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace loupe::test
