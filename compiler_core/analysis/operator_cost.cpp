#include "analysis/operator_cost.h"

namespace loupe::analysis {

namespace {

using ir::OpType;

std::int64_t dim(const ir::Tensor* tensor, std::size_t axis) {
  if (tensor == nullptr || axis >= tensor->shape.size()) return 0;
  return tensor->shape[axis];
}

std::int64_t macsOf(const ir::Graph& graph, const ir::Operator& op) {
  const ir::Tensor* in0 = graph.input(op, 0);
  const ir::Tensor* in1 = graph.input(op, 1);
  const std::int64_t outElements = op.outputs.empty() ? 0 : graph.output(op, 0).elementCount();
  switch (op.type) {
    case OpType::Conv2D:  // filter [O, KH, KW, I]: one MAC per filter tap and output
      return outElements * dim(in1, 1) * dim(in1, 2) * dim(in1, 3);
    case OpType::DepthwiseConv2D:  // filter [1, KH, KW, O]
      return outElements * dim(in1, 1) * dim(in1, 2);
    case OpType::FullyConnected:  // weights [units, depth]
      return outElements * dim(in1, 1);
    case OpType::TransposeConv: {  // inputs: output shape, filter [O, KH, KW, I], input
      const ir::Tensor* input = graph.input(op, 2);
      return (input ? input->elementCount() : 0) * dim(in1, 0) * dim(in1, 1) * dim(in1, 2);
    }
    case OpType::AveragePool2D:
    case OpType::MaxPool2D: {
      const auto& a = std::get<ir::Pool2DAttrs>(op.attributes);
      return outElements * a.filterH * a.filterW;
    }
    case OpType::Mean:
      return in0 ? in0->elementCount() : 0;
    case OpType::Svdf: {  // feature weights [F, I] over the input, time weights [F, T] over the
                          // state
      const ir::Tensor* timeWeights = graph.input(op, 2);
      const std::int64_t batches = dim(in0, 0);
      return batches * (in1 ? in1->elementCount() : 0) +
             batches * (timeWeights ? timeWeights->elementCount() : 0);
    }
    case OpType::UnidirectionalSequenceLstm: {
      // Four gates, each an input and a recurrent matrix product per time step.
      std::int64_t weightElements = 0;
      for (std::size_t slot = 1; slot <= 8; ++slot) {
        if (const ir::Tensor* w = graph.input(op, slot)) weightElements += w->elementCount();
      }
      if (const ir::Tensor* projection = graph.input(op, 16)) {
        weightElements += projection->elementCount();
      }
      const auto& a = std::get<ir::SequenceLstmAttrs>(op.attributes);
      const std::int64_t steps = a.timeMajor ? dim(in0, 0) : dim(in0, 1);
      const std::int64_t batches = a.timeMajor ? dim(in0, 1) : dim(in0, 0);
      return steps * batches * weightElements;
    }
    case OpType::Add:
    case OpType::Sub:
    case OpType::Mul:
    case OpType::Softmax:
    case OpType::Logistic:
    case OpType::Tanh:
    case OpType::HardSwish:
    case OpType::LeakyRelu:
    case OpType::Quantize:
    case OpType::Dequantize:
      return outElements;
    default:
      return 0;
  }
}

}  // namespace

OperatorCost operatorCost(const ir::Graph& graph, const ir::Operator& op) {
  OperatorCost cost;
  cost.macs = macsOf(graph, op);
  for (int index : op.inputs) {
    if (index == ir::kNoTensor) continue;
    const auto& tensor = graph.tensor(index);
    (tensor.isConstant ? cost.parameterBytes : cost.inputBytes) += tensor.byteSize();
  }
  for (int index : op.outputs) cost.outputBytes += graph.tensor(index).byteSize();
  return cost;
}

GraphCost graphCost(const ir::Graph& graph) {
  GraphCost cost;
  for (const auto& op : graph.operators) cost.macs += macsOf(graph, op);
  for (const auto& tensor : graph.tensors) {
    (tensor.isConstant ? cost.parameterBytes : cost.activationBytes) += tensor.byteSize();
  }
  for (int index : graph.inputs) cost.inputBytes += graph.tensor(index).byteSize();
  for (int index : graph.outputs) cost.outputBytes += graph.tensor(index).byteSize();
  return cost;
}

}  // namespace loupe::analysis
