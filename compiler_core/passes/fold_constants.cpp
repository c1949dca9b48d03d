#include "passes/fold_constants.h"

#include <algorithm>

#include "passes/graph_rewrite.h"
#include "reference/kernel.h"
#include "reference/tensor_store.h"

namespace loupe::passes {

namespace {

bool isFoldable(const ir::Graph& graph, const ir::Operator& op) {
  if (op.type == ir::OpType::Opaque || op.outputs.empty()) return false;
  bool anyInput = false;
  for (int index : op.inputs) {
    if (index == ir::kNoTensor) continue;
    const ir::Tensor& tensor = graph.tensor(index);
    if (!tensor.isConstant || tensor.isVariable) return false;
    anyInput = true;
  }
  if (!anyInput) return false;
  return std::none_of(op.outputs.begin(), op.outputs.end(), [&](int index) {
    return graph.tensor(index).isVariable || isGraphOutput(graph, index);
  });
}

// A graph holding only what `op` touches (the other tensors are empty
// placeholders keeping the indices), so evaluating it allocates only its own
// buffers.
ir::Graph operatorGraph(const ir::Graph& graph, const ir::Operator& op) {
  ir::Graph single;
  single.name = graph.name;
  single.tensors.resize(graph.tensors.size());
  for (std::size_t i = 0; i < single.tensors.size(); ++i) {
    single.tensors[i].index = static_cast<int>(i);
    single.tensors[i].shape = {0};
  }
  for (const auto* list : {&op.inputs, &op.outputs, &op.intermediates}) {
    for (int index : *list) {
      if (index != ir::kNoTensor) single.tensor(index) = graph.tensor(index);
    }
  }
  single.operators = {op};
  return single;
}

}  // namespace

ir::Graph foldConstants(ir::Graph graph, PassContext& context) {
  std::vector<bool> folded(graph.operators.size(), false);
  for (std::size_t position = 0; position < graph.operators.size(); ++position) {
    const ir::Operator& op = graph.operators[position];
    if (!isFoldable(graph, op)) continue;
    const reference::Kernel* kernel = reference::findKernel(op.type);
    if (kernel == nullptr) continue;
    const ir::Graph single = operatorGraph(graph, op);
    if (auto reason = kernel->check(single, single.operators.front())) {
      context.remark(operatorLabel(op) + " has constant inputs but is not folded: " + *reason);
      continue;
    }
    reference::TensorStore store(single);
    kernel->eval(single, single.operators.front(), store);
    std::string written;
    for (int index : op.outputs) {
      ir::Tensor& output = graph.tensor(index);
      const auto bytes = store.bytes(index);
      output.data.assign(bytes.begin(), bytes.end());
      output.isConstant = true;
      written += (written.empty() ? "%c" : ", %c") + std::to_string(index);
    }
    folded[position] = true;
    context.remark(operatorLabel(op) + " folded into " + written);
  }
  removeOperators(graph, folded);
  return graph;
}

}  // namespace loupe::passes
