// One-operator graphs the kernel tests of several operators build alike: a
// binary element-wise operator (ADD, SUB, MUL) and a 2-D pooling operator.
#pragma once

#include <utility>

#include "graph_builder.h"
#include "ir/graph.h"

namespace loupe::test {

inline ir::Graph binaryOpGraph(ir::OpType type, ir::DType dtype, ir::Shape shape1, ir::Shape shape2,
                               ir::Shape outShape, ir::Quantization q1, ir::Quantization q2,
                               ir::Quantization qOut, ir::ElementwiseAttrs attrs) {
  GraphBuilder b;
  const int a = b.tensor("a", dtype, std::move(shape1), std::move(q1));
  const int c = b.tensor("b", dtype, std::move(shape2), std::move(q2));
  const int out = b.tensor("out", dtype, std::move(outShape), std::move(qOut));
  b.op(type, {a, c}, {out}, attrs);
  return b.inputs({a, c}).outputs({out}).build();
}

inline ir::Pool2DAttrs poolAttrs(ir::Padding padding, int filterH, int filterW, int stride,
                                 ir::Activation activation = ir::Activation::None) {
  ir::Pool2DAttrs attrs;
  attrs.padding = padding;
  attrs.filterH = filterH;
  attrs.filterW = filterW;
  attrs.strideH = attrs.strideW = stride;
  attrs.activation = activation;
  return attrs;
}

// Input and output share `quant` (none for float32).
inline ir::Graph poolOpGraph(ir::OpType type, ir::DType dtype, ir::Shape in, ir::Shape out,
                             ir::Pool2DAttrs attrs, ir::Quantization quant) {
  GraphBuilder b;
  if (dtype == ir::DType::Float32) quant = {};
  const int i = b.tensor("in", dtype, std::move(in), quant);
  const int o = b.tensor("out", dtype, std::move(out), quant);
  b.op(type, {i}, {o}, attrs);
  return b.inputs({i}).outputs({o}).build();
}

}  // namespace loupe::test
