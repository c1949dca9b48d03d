// Builds small graph IR instances by hand for kernel and pass tests, so a test
// can state an operator's tensors and attributes in a few lines.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace loupe::test {

inline ir::Quantization perTensor(float scale, std::int64_t zeroPoint) {
  return ir::Quantization{{scale}, {zeroPoint}, 0};
}

inline ir::Quantization perChannel(std::vector<float> scales, int dimension) {
  return ir::Quantization{scales, std::vector<std::int64_t>(scales.size(), 0), dimension};
}

class GraphBuilder {
 public:
  // A non-constant tensor (activation, model input or output).
  int tensor(std::string name, ir::DType dtype, ir::Shape shape, ir::Quantization quant = {}) {
    ir::Tensor t;
    t.index = static_cast<int>(graph_.tensors.size());
    t.name = std::move(name);
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.quantization = std::move(quant);
    graph_.tensors.push_back(std::move(t));
    return graph_.tensors.back().index;
  }

  // A constant tensor holding `values` (T must match the dtype's size).
  template <typename T>
  int constant(std::string name, ir::DType dtype, ir::Shape shape, const std::vector<T>& values,
               ir::Quantization quant = {}) {
    const int index = tensor(std::move(name), dtype, std::move(shape), std::move(quant));
    auto& t = graph_.tensors.back();
    t.isConstant = true;
    std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    t.data = std::move(bytes);
    return index;
  }

  int op(ir::OpType type, std::vector<int> inputs, std::vector<int> outputs,
         ir::Attributes attributes = {}, int version = 1) {
    ir::Operator o;
    o.index = static_cast<int>(graph_.operators.size());
    o.type = type;
    o.version = version;
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    o.attributes = std::move(attributes);
    graph_.operators.push_back(std::move(o));
    return graph_.operators.back().index;
  }

  GraphBuilder& inputs(std::vector<int> indices) {
    graph_.inputs = std::move(indices);
    return *this;
  }
  GraphBuilder& outputs(std::vector<int> indices) {
    graph_.outputs = std::move(indices);
    return *this;
  }

  ir::Graph build() const { return graph_; }

 private:
  ir::Graph graph_;
};

}  // namespace loupe::test
