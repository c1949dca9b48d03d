#include "ops/subgraph_inlining.h"

#include <algorithm>
#include <map>

#include "lowering/lower_operator.h"
#include "lowering/lowering_support.h"
#include "tir/substitute_buffers.h"

namespace loupe::ops {

namespace {

bool produced(const ir::Graph& graph, int tensor) {
  for (const ir::Operator& op : graph.operators) {
    if (std::find(op.outputs.begin(), op.outputs.end(), tensor) != op.outputs.end()) return true;
  }
  return false;
}

tir::Buffer renamed(const tir::Buffer& buffer, const std::string& name) {
  auto copy = std::make_shared<tir::BufferNode>(*buffer);
  copy->name = name;
  return copy;
}

// A function-local buffer of `like`'s element type and count.
tir::Buffer localLike(const tir::Buffer& like, const std::string& name) {
  auto local = std::make_shared<tir::BufferNode>();
  local->name = name;
  local->type = like->type;
  local->shape = {like->elementCount()};
  local->scope = tir::BufferScope::Local;
  return local;
}

// Where each tensor of the subgraph lives inside the function.
class TensorBuffers {
 public:
  TensorBuffers(const ir::Graph& graph, std::string prefix, tir::PrimFunc& into)
      : graph_(graph), prefix_(std::move(prefix)), into_(into) {}

  void bind(int tensor, const tir::Buffer& buffer) { buffers_.emplace(tensor, buffer); }
  bool bound(int tensor) const { return buffers_.contains(tensor); }

  // The buffer of `tensor`; a constant's data joins the function, a tensor
  // seen for the first time becomes a local buffer shaped like `like`.
  tir::Buffer of(int tensor, const tir::Buffer& like) {
    if (auto it = buffers_.find(tensor); it != buffers_.end()) return it->second;
    const ir::Tensor& t = graph_.tensor(tensor);
    const std::string name =
        prefix_ + "t" + std::to_string(tensor) + "_" + lowering::sanitizeName(t.name);
    tir::Buffer buffer;
    if (t.isConstant) {
      auto constant = std::make_shared<tir::BufferNode>(*like);
      constant->name = name;
      constant->scope = tir::BufferScope::Constant;
      constant->written = false;
      constant->data = t.data;
      into_.constants.push_back(constant);
      buffer = constant;
    } else {
      buffer = localLike(like, name);
      locals_.push_back(buffer);
    }
    buffers_.emplace(tensor, buffer);
    return buffer;
  }

  // The locals created so far, in creation order.
  const std::vector<tir::Buffer>& locals() const { return locals_; }

 private:
  const ir::Graph& graph_;
  std::string prefix_;
  tir::PrimFunc& into_;
  std::map<int, tir::Buffer> buffers_;
  std::vector<tir::Buffer> locals_;
};

}  // namespace

tir::Stmt copyElements(const tir::Buffer& to, const tir::Buffer& from) {
  const tir::Var i = tir::makeVar("i");
  return tir::forLoop(i, tir::intImm(0), tir::intImm(to->elementCount()),
                      tir::store(to, tir::refVar(i), tir::load(from, tir::refVar(i))));
}

tir::Stmt inlineSubgraph(const ir::Graph& subgraph, const std::vector<tir::Buffer>& inputs,
                         const std::vector<tir::Buffer>& outputs, const std::string& prefix,
                         tir::PrimFunc& into) {
  TensorBuffers buffers(subgraph, prefix, into);
  for (std::size_t i = 0; i < subgraph.inputs.size(); ++i) {
    buffers.bind(subgraph.inputs[i], inputs.at(i));
  }
  // An output an operator computes is computed where the caller wants it;
  // the others (an input or constant passed through, a tensor listed twice)
  // are copied there once the operators have run.
  std::vector<std::pair<std::size_t, int>> copies;
  for (std::size_t j = 0; j < subgraph.outputs.size(); ++j) {
    const int tensor = subgraph.outputs[j];
    if (!buffers.bound(tensor) && produced(subgraph, tensor)) {
      buffers.bind(tensor, outputs.at(j));
    } else {
      copies.emplace_back(j, tensor);
    }
  }
  std::vector<tir::Stmt> steps;
  for (const ir::Operator& op : subgraph.operators) {
    const std::string opPrefix = prefix + "op" + std::to_string(op.index) + "_";
    tir::PrimFunc func = lowering::lowerOperator(subgraph, op, opPrefix + "function");
    if (func.scratchBytes > 0) {
      lowering::fail(op, "a kernel with workspace scratch cannot run inside a subgraph yet");
    }
    tir::BufferMap substitution;
    for (std::size_t k = 0; k < func.params.size(); ++k) {
      substitution.emplace(func.params[k].get(), buffers.of(func.paramTensors[k], func.params[k]));
    }
    for (const tir::Buffer& constant : func.constants) {
      tir::Buffer moved = renamed(constant, opPrefix + constant->name);
      substitution.emplace(constant.get(), moved);
      into.constants.push_back(moved);
    }
    for (const std::string& header : func.externHeaders) {
      if (std::find(into.externHeaders.begin(), into.externHeaders.end(), header) ==
          into.externHeaders.end()) {
        into.externHeaders.push_back(header);
      }
    }
    if (func.attrs.contains("params_may_alias")) into.attrs["params_may_alias"] = "1";
    steps.push_back(tir::substituteBuffers(func.body, substitution));
  }
  for (const auto& [j, tensor] : copies) {
    const tir::Buffer& to = outputs.at(j);
    steps.push_back(copyElements(to, buffers.of(tensor, to)));
  }
  tir::Stmt body = tir::seq(std::move(steps));
  const auto& locals = buffers.locals();
  for (auto it = locals.rbegin(); it != locals.rend(); ++it) body = tir::allocate(*it, body);
  return body;
}

}  // namespace loupe::ops
