#include "frontend/resource_variables.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/tflite_importer.h"
#include "ops/shape_rule.h"
#include "tflite_schema_generated.h"

namespace loupe::frontend {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw ImportError(what);
}

std::string where(int subgraph, const ir::Operator& op) {
  return (subgraph == 0 ? std::string() : "subgraph " + std::to_string(subgraph) + " ") +
         "operator " + std::to_string(op.index) + " (" + op.typeName() + ")";
}

const tflite::Operator& sourceOf(const tflite::Model& model, int subgraph, const ir::Operator& op) {
  return *model.subgraphs()
              ->Get(static_cast<flatbuffers::uoffset_t>(subgraph))
              ->operators()
              ->Get(static_cast<flatbuffers::uoffset_t>(op.index));
}

struct Variable {
  std::string container, sharedName;
  // The tensor whose type, shape and quantisation the variable takes: the
  // first value assigned to it (in the init subgraph, else in the model),
  // else the first READ_VARIABLE's output.
  std::optional<ir::Tensor> prototype;
  std::vector<std::uint8_t> initialContents;  // what the init subgraph assigns
  int tensor = -1;                            // the variable tensor, once made
};

class Resolver {
 public:
  Resolver(ir::Graph& graph, const tflite::Model& model) : graph_(graph), model_(model) {}

  void resolve(const std::set<int>& handleTensors,
               const std::function<ir::Graph(int subgraph)>& readSubgraph) {
    // Handles of subgraph 0: the tensor each VAR_HANDLE writes.
    std::map<int, std::size_t> handles;
    for (const ir::Operator& op : graph_.operators) {
      if (op.type == ir::OpType::VarHandle) handles[op.outputs.at(0)] = variableOf(0, op);
    }
    bool accessed = false;
    for (const ir::Operator& op : graph_.operators) {
      if (op.type == ir::OpType::ReadVariable || op.type == ir::OpType::AssignVariable) {
        accessed = true;
      } else if (op.type == ir::OpType::CallOnce) {
        if (accessed) {
          fail(where(0, op) +
               " comes after a READ_VARIABLE or ASSIGN_VARIABLE; Loupe runs the init subgraph "
               "before the model, so CALL_ONCE must come first");
        }
        foldInitSubgraph(op, readSubgraph);
      }
    }
    makeVariableTensors(handles);
    for (ir::Operator& op : graph_.operators) {
      if (op.type != ir::OpType::ReadVariable && op.type != ir::OpType::AssignVariable) continue;
      const auto handle = handles.find(op.inputs.at(0));
      if (handle == handles.end()) {
        fail(where(0, op) + " takes " + ops::tensorText(graph_.tensor(op.inputs[0])) +
             " as its resource, which no VAR_HANDLE of the model writes");
      }
      op.inputs[0] = variables_[handle->second].tensor;
    }
    std::erase_if(graph_.operators, [](const ir::Operator& op) {
      return op.type == ir::OpType::VarHandle || op.type == ir::OpType::CallOnce;
    });
    for (std::size_t i = 0; i < graph_.operators.size(); ++i) {
      graph_.operators[i].index = static_cast<int>(i);
    }
    refuseLeftoverHandles(handleTensors);
  }

 private:
  // The variable (container, shared_name) of a VAR_HANDLE, made on first use.
  std::size_t variableOf(int subgraph, const ir::Operator& op) {
    const auto* options = sourceOf(model_, subgraph, op).builtin_options_as_VarHandleOptions();
    Variable v;
    if (options != nullptr && options->container()) v.container = options->container()->str();
    if (options != nullptr && options->shared_name()) v.sharedName = options->shared_name()->str();
    for (std::size_t i = 0; i < variables_.size(); ++i) {
      if (variables_[i].container == v.container && variables_[i].sharedName == v.sharedName) {
        return i;
      }
    }
    variables_.push_back(std::move(v));
    return variables_.size() - 1;
  }

  // The init subgraph's assignments of constants become initial contents.
  void foldInitSubgraph(const ir::Operator& callOnce,
                        const std::function<ir::Graph(int subgraph)>& readSubgraph) {
    const auto* options = sourceOf(model_, 0, callOnce).builtin_options_as_CallOnceOptions();
    const int index = options != nullptr ? options->init_subgraph_index() : 0;
    const int count = static_cast<int>(model_.subgraphs()->size());
    if (index < 1 || index >= count) {
      fail(where(0, callOnce) + " names init subgraph " + std::to_string(index) +
           "; the model has subgraphs 1 to " + std::to_string(count - 1) + " besides the main one");
    }
    const ir::Graph init = readSubgraph(index);
    std::map<int, std::size_t> handles;
    for (const ir::Operator& op : init.operators) {
      if (op.type == ir::OpType::VarHandle) {
        handles[op.outputs.at(0)] = variableOf(index, op);
        continue;
      }
      if (op.type != ir::OpType::AssignVariable) {
        fail(where(index, op) + ", in the init subgraph of " + where(0, callOnce) +
             ": Loupe folds init subgraphs that assign constants to resource variables, and " +
             "this one computes");
      }
      const auto handle = handles.find(op.inputs.at(0));
      const ir::Tensor& value = init.tensor(op.inputs.at(1));
      if (handle == handles.end()) {
        fail(where(index, op) + " assigns to a resource that no VAR_HANDLE of its subgraph writes");
      }
      if (!value.isConstant) {
        fail(where(index, op) + " assigns " + ops::tensorText(value) +
             ", computed at run time; Loupe folds init subgraphs that assign constants only");
      }
      Variable& variable = variables_[handle->second];
      variable.prototype = value;
      variable.initialContents = value.data;
    }
  }

  void makeVariableTensors(const std::map<int, std::size_t>& handles) {
    for (const ir::Operator& op : graph_.operators) {
      const bool assign = op.type == ir::OpType::AssignVariable;
      if (!assign && op.type != ir::OpType::ReadVariable) continue;
      const auto handle = handles.find(op.inputs.at(0));
      if (handle == handles.end()) continue;  // refused by resolve()
      Variable& variable = variables_[handle->second];
      if (variable.prototype) continue;
      if (assign && op.inputs.size() > 1) {
        variable.prototype = graph_.tensor(op.inputs[1]);
      } else if (!assign && !op.outputs.empty()) {
        variable.prototype = graph_.tensor(op.outputs[0]);
      }
    }
    for (Variable& variable : variables_) {
      if (!variable.prototype) continue;  // never read nor assigned in the model
      ir::Tensor tensor;
      tensor.index = static_cast<int>(graph_.tensors.size());
      tensor.name = variable.sharedName.empty()
                        ? "resource_variable_" + std::to_string(tensor.index)
                        : variable.sharedName;
      tensor.dtype = variable.prototype->dtype;
      tensor.shape = variable.prototype->shape;
      tensor.quantization = variable.prototype->quantization;
      tensor.isVariable = true;
      tensor.initialContents = variable.initialContents;
      variable.tensor = tensor.index;
      graph_.tensors.push_back(std::move(tensor));
    }
  }

  // A handle is a run-time id to TFLite Micro; anything else that uses one
  // (a model input, another operator) has no meaning once handles are gone.
  void refuseLeftoverHandles(const std::set<int>& handleTensors) const {
    const auto isHandle = [&](int tensor) { return handleTensors.contains(tensor); };
    for (const ir::Operator& op : graph_.operators) {
      for (const std::vector<int>* operands : {&op.inputs, &op.outputs}) {
        if (const auto it = std::find_if(operands->begin(), operands->end(), isHandle);
            it != operands->end()) {
          fail(where(0, op) + " uses the resource handle " + ops::tensorText(graph_.tensor(*it)) +
               "; Loupe supports resource handles between VAR_HANDLE and READ_VARIABLE or "
               "ASSIGN_VARIABLE only");
        }
      }
    }
    for (const std::vector<int>* io : {&graph_.inputs, &graph_.outputs}) {
      if (const auto it = std::find_if(io->begin(), io->end(), isHandle); it != io->end()) {
        fail("model " + std::string(io == &graph_.inputs ? "input " : "output ") +
             ops::tensorText(graph_.tensor(*it)) +
             " is a resource handle, which Loupe cannot take from or give to an application");
      }
    }
  }

  ir::Graph& graph_;
  const tflite::Model& model_;
  std::vector<Variable> variables_;
};

}  // namespace

void resolveResourceVariables(ir::Graph& graph, const tflite::Model& model,
                              const std::set<int>& handleTensors,
                              const std::function<ir::Graph(int subgraph)>& readSubgraph) {
  const bool uses = std::any_of(graph.operators.begin(), graph.operators.end(), [](const auto& op) {
    return op.type == ir::OpType::VarHandle || op.type == ir::OpType::CallOnce ||
           op.type == ir::OpType::ReadVariable || op.type == ir::OpType::AssignVariable;
  });
  if (uses || !handleTensors.empty()) Resolver(graph, model).resolve(handleTensors, readSubgraph);
}

}  // namespace loupe::frontend
