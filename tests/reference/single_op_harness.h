// Runs a hand-built graph through the reference interpreter for kernel tests:
// typed input/output conversion, the check reason of one operator, and the
// reason the interpreter refuses a graph.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "reference/kernel.h"
#include "reference/reference_interpreter.h"

namespace loupe::test {

template <typename T>
std::vector<std::uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> valuesOf(std::span<const std::uint8_t> bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// Sets each model input from `inputs` (raw bytes, in graph.inputs order),
// invokes, and returns output 0 as values of T.
template <typename T>
std::vector<T> runGraph(const ir::Graph& graph,
                        const std::vector<std::vector<std::uint8_t>>& inputs) {
  reference::ReferenceInterpreter interpreter(graph);
  for (std::size_t i = 0; i < inputs.size(); ++i) interpreter.setInput(i, inputs[i]);
  interpreter.invoke();
  return valuesOf<T>(interpreter.output(0));
}

// The reason the kernel of operator `opIndex` gives for not running it.
inline std::optional<std::string> checkReason(const ir::Graph& graph, std::size_t opIndex = 0) {
  const auto& op = graph.operators.at(opIndex);
  const reference::Kernel* kernel = reference::findKernel(op.type);
  if (kernel == nullptr) return std::string("no kernel");
  return kernel->check(graph, op);
}

// The reason the reference interpreter gives for refusing the graph's first
// problem operator, or nullopt when it runs every operator.
inline std::optional<std::string> firstProblem(const ir::Graph& graph) {
  const auto problems = reference::findUnsupportedOperators(graph);
  if (problems.empty()) return std::nullopt;
  return problems.front().reason;
}

// firstProblem, or "" when every operator is supported.
inline std::string checkMessage(const ir::Graph& graph) {
  return firstProblem(graph).value_or(std::string());
}

}  // namespace loupe::test
