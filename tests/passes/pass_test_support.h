// What the pass tests share: deterministic inputs for a graph, running the
// reference interpreter, and the check every rewrite must pass: the graph
// after the pass gives the same output bytes as before, for many inputs.
#pragma once

#include <QtTest>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "graph_builder.h"
#include "ir/graph.h"
#include "passes/pass.h"
#include "reference/reference_interpreter.h"

namespace loupe::test {

// splitmix64, as the golden seed sets use.
inline std::uint64_t nextRandom(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Bytes for every model input: any value for integer types, floats in
// [-4, 4) for float32 (no NaN or infinity).
inline std::vector<std::vector<std::uint8_t>> randomInputs(const ir::Graph& graph,
                                                           std::uint64_t seed) {
  std::vector<std::vector<std::uint8_t>> inputs;
  std::uint64_t state = seed;
  for (int index : graph.inputs) {
    const ir::Tensor& tensor = graph.tensor(index);
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(tensor.byteSize()));
    if (tensor.dtype == ir::DType::Float32) {
      for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
        const float value = static_cast<float>((nextRandom(state) >> 40) / 16777216.0 * 8.0 - 4.0);
        std::memcpy(bytes.data() + i, &value, 4);
      }
    } else {
      for (auto& byte : bytes) byte = static_cast<std::uint8_t>(nextRandom(state));
    }
    inputs.push_back(std::move(bytes));
  }
  return inputs;
}

inline std::vector<std::vector<std::uint8_t>> runReference(
    const ir::Graph& graph, const std::vector<std::vector<std::uint8_t>>& inputs) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  std::vector<std::vector<std::uint8_t>> outputs;
  for (std::size_t i = 0; i < graph.outputs.size(); ++i) {
    const auto bytes = interpreter.output(i);
    outputs.emplace_back(bytes.begin(), bytes.end());
  }
  return outputs;
}

// Every reason the reference interpreter gives for refusing the graph, or ""
// when it runs every operator.
inline std::string checkMessages(const ir::Graph& graph) {
  std::string text;
  for (const auto& problem : reference::findUnsupportedOperators(graph)) {
    text += "operator " + std::to_string(problem.operatorIndex) + ": " + problem.reason + "\n";
  }
  return text;
}

// The two graphs give byte-identical outputs for `rounds` random inputs.
inline bool sameOutputs(const ir::Graph& before, const ir::Graph& after, int rounds = 8) {
  for (int round = 0; round < rounds; ++round) {
    const auto inputs = randomInputs(before, 1000 + static_cast<std::uint64_t>(round));
    if (runReference(before, inputs) != runReference(after, inputs)) return false;
  }
  return true;
}

template <typename Pass>
ir::Graph runPass(Pass pass, const ir::Graph& graph) {
  passes::PassContext context;
  return pass(graph, context);
}

// Index of the first operator of that type, or -1.
inline int findOp(const ir::Graph& graph, ir::OpType type) {
  for (const auto& op : graph.operators) {
    if (op.type == type) return op.index;
  }
  return -1;
}

inline int countOps(const ir::Graph& graph, ir::OpType type) {
  int count = 0;
  for (const auto& op : graph.operators) count += op.type == type;
  return count;
}

inline ir::Pool2DAttrs poolAttributes(ir::Padding padding, int filter, int stride) {
  ir::Pool2DAttrs attrs;
  attrs.padding = padding;
  attrs.filterH = attrs.filterW = filter;
  attrs.strideH = attrs.strideW = stride;
  return attrs;
}

template <typename T>
std::vector<T> decode(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// Deterministic filter values in [-127, 127].
inline std::vector<std::int8_t> filterValues(std::size_t count, std::uint64_t seed) {
  std::vector<std::int8_t> values(count);
  std::uint64_t state = seed;
  for (auto& v : values)
    v = static_cast<std::int8_t>(static_cast<int>(nextRandom(state) % 255) - 127);
  return values;
}

}  // namespace loupe::test
