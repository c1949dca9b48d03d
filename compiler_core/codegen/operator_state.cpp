#include "codegen/operator_state.h"

#include <algorithm>
#include <map>
#include <set>

#include "lowering/lowering_support.h"

namespace loupe::codegen {

namespace {

bool contains(const std::vector<int>& tensors, int tensor) {
  return std::find(tensors.begin(), tensors.end(), tensor) != tensors.end();
}

}  // namespace

std::vector<StateBuffer> operatorState(const ir::Graph& graph,
                                       const std::vector<tir::PrimFunc>& functions,
                                       const std::string& modelName) {
  std::set<int> variables;
  for (const tir::PrimFunc& f : functions) {
    for (int tensor : f.paramTensors) {
      if (graph.tensor(tensor).isVariable) variables.insert(tensor);
    }
  }
  std::map<std::string, int> nameCount;
  for (int t : variables) ++nameCount[lowering::sanitizeName(graph.tensor(t).name)];
  std::vector<StateBuffer> state;
  for (int t : variables) {
    const ir::Tensor& tensor = graph.tensor(t);
    const std::string where =
        "variable tensor '" + tensor.name + "' (tensor " + std::to_string(t) + ")";
    if (contains(graph.inputs, t) || contains(graph.outputs, t)) {
      throw lowering::LoweringError(
          where + " is a model " + (contains(graph.inputs, t) ? "input" : "output") +
          "; generated code keeps operator state in its own storage across runs, so state "
          "cannot also be an application buffer");
    }
    for (const ir::Operator& op : graph.operators) {
      if (contains(op.outputs, t)) {
        throw lowering::LoweringError(where + " is the output of #" + std::to_string(op.index) +
                                      " " + op.typeName() +
                                      "; only operators that update state in place are "
                                      "supported");
      }
    }
    StateBuffer buffer;
    buffer.tensor = t;
    std::string name = lowering::sanitizeName(tensor.name);
    if (nameCount[name] > 1) name += "_" + std::to_string(t);
    buffer.symbol = "tvmgen_" + modelName + "_state_" + name;
    buffer.elements = tensor.elementCount();
    buffer.bytes = tensor.byteSize();
    if (tensor.dtype == ir::DType::Int8) buffer.initialValue = tensor.quantization.zeroPoint();
    buffer.initialContents = tensor.initialContents;
    state.push_back(std::move(buffer));
  }
  return state;
}

const StateBuffer* findState(const std::vector<StateBuffer>& state, int tensor) {
  for (const StateBuffer& s : state) {
    if (s.tensor == tensor) return &s;
  }
  return nullptr;
}

}  // namespace loupe::codegen
