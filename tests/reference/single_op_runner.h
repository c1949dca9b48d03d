// Runs hand-built graphs through the reference interpreter for kernel tests:
// typed values in, typed values out, and the check message of operator 0.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "ir/graph.h"
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

// The reason the reference interpreter gives for refusing the graph's first
// problem operator, or "" when every operator is supported.
inline std::string checkMessage(const ir::Graph& graph) {
  const auto problems = reference::findUnsupportedOperators(graph);
  return problems.empty() ? std::string() : problems.front().reason;
}

}  // namespace loupe::test
