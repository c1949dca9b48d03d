// Runs one single-input, single-output operator (an activation, QUANTIZE,
// DEQUANTIZE) on given values through the reference interpreter, and reports
// what the kernel's check says about it, so kernel tests stay short.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "graph_builder.h"
#include "single_op_harness.h"

namespace loupe::test {

struct UnaryOp {
  ir::OpType type = ir::OpType::Relu;
  ir::DType inputType = ir::DType::Float32;
  ir::Quantization inputQuant;
  ir::DType outputType = ir::DType::Float32;
  ir::Quantization outputQuant;
  ir::Attributes attributes;

  ir::Graph graph(std::int32_t elements) const {
    GraphBuilder b;
    const int in = b.tensor("x", inputType, {elements}, inputQuant);
    const int out = b.tensor("y", outputType, {elements}, outputQuant);
    b.op(type, {in}, {out}, attributes);
    b.inputs({in}).outputs({out});
    return b.build();
  }

  // The kernel's reason for refusing the operator, or nullopt.
  std::optional<std::string> problem() const { return firstProblem(graph(4)); }

  template <typename Out, typename In>
  std::vector<Out> run(const std::vector<In>& values) const {
    return runGraph<Out>(graph(static_cast<std::int32_t>(values.size())), {bytesOf(values)});
  }

  template <typename Out, typename In>
  Out runOne(In value) const {
    return run<Out, In>({value}).front();
  }
};

// Every value of an integer type, in increasing order.
template <typename T>
std::vector<T> allValues() {
  std::vector<T> values;
  for (std::int32_t v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v) {
    values.push_back(static_cast<T>(v));
  }
  return values;
}

}  // namespace loupe::test
