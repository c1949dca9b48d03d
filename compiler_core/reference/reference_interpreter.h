// The desktop oracle: evaluates the graph IR operator by operator, bit-exact
// with TFLite (Micro) for integer models. Everything the graph needs is
// checked when the interpreter is built, so an unsupported operator is
// reported by name before anything runs.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "reference/tensor_store.h"

namespace loupe::reference {

class UnsupportedModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OperatorProblem {
  int operatorIndex;
  std::string operatorType;
  std::string reason;
};

// Every operator of the graph the interpreter cannot evaluate, with why.
std::vector<OperatorProblem> findUnsupportedOperators(const ir::Graph& graph);

class ReferenceInterpreter {
 public:
  // Throws UnsupportedModelError listing every unsupported operator.
  explicit ReferenceInterpreter(const ir::Graph& graph);

  // Copies one model input; throws std::invalid_argument on a size mismatch.
  void setInput(std::size_t inputIndex, std::span<const std::uint8_t> bytes);
  void invoke();
  std::span<const std::uint8_t> output(std::size_t outputIndex) const;
  std::span<const std::uint8_t> tensorBytes(int tensorIndex) const;

 private:
  const ir::Graph& graph_;
  TensorStore store_;
};

}  // namespace loupe::reference
