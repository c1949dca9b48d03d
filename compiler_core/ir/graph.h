// The graph IR: a typed dataflow graph of one TFLite subgraph. Operators are
// kept in the model's execution order; tensors keep their TFLite indices so
// diagnostics and per-tensor dumps can name them as the model file does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/attributes.h"
#include "ir/op_type.h"
#include "ir/partition.h"
#include "ir/tensor.h"

namespace loupe::ir {

// Marks an optional operator input that the model leaves out (TFLite's -1).
inline constexpr int kNoTensor = -1;

struct Graph;

struct Operator {
  int index = -1;  // position in execution order
  OpType type = OpType::Opaque;
  int version = 1;           // TFLite operator version
  std::vector<int> inputs;   // tensor indices, kNoTensor for an absent optional input
  std::vector<int> outputs;  // tensor indices
  std::vector<int> intermediates;
  Attributes attributes;
  // The imported model's operators this one stands for once passes have
  // fused or renumbered operators; empty means just itself ({index}), as
  // every operator is straight out of the importer.
  std::vector<int> sourceOperators;
  // A no-copy operator (RESHAPE, SQUEEZE, EXPAND_DIMS keeping dtype,
  // quantisation and element count): the output is the input's storage
  // reinterpreted, so code generation emits no copy and the memory planner
  // gives both tensors the same bytes. Set by fuse_operators.
  bool isView = false;
  // The target the operator runs on and its region, once annotate_targets
  // and merge_target_regions have run (see ir/partition.h).
  OperatorPlacement placement;
  // The subgraphs a control-flow operator runs, as the importer read them
  // (IF: then, else; WHILE: cond, body); empty for every other operator.
  // Shared, not copied, by the passes' copies of the operator.
  std::vector<std::shared_ptr<const Graph>> subgraphs;

  // "CONV_2D", or the custom code of an opaque operator.
  std::string typeName() const;
  // sourceOperators, or {index} when it is empty.
  std::vector<int> modelOperators() const;
};

struct Graph {
  std::string name;         // subgraph name, or the model file's stem
  std::string description;  // the model's description string
  std::vector<Tensor> tensors;
  std::vector<Operator> operators;
  std::vector<int> inputs;   // tensor indices of the model inputs
  std::vector<int> outputs;  // tensor indices of the model outputs
  // Set by partition_graph: the regions offloaded to a target other than the
  // CPU, and main's calls in order. Empty before, and when every operator
  // stays on the CPU (main then calls the operators in execution order).
  std::vector<ExternalFunction> externalFunctions;
  std::vector<MainCall> mainCalls;

  const Tensor& tensor(int index) const { return tensors.at(static_cast<std::size_t>(index)); }
  Tensor& tensor(int index) { return tensors.at(static_cast<std::size_t>(index)); }
  // The tensor behind operator input `slot`, or nullptr when it is absent.
  const Tensor* input(const Operator& op, std::size_t slot) const;
  const Tensor& output(const Operator& op, std::size_t slot) const;
};

// Whether `op` is a shape operator (RESHAPE, SQUEEZE, EXPAND_DIMS) whose
// output is its input's bytes under another shape, so the output can share
// the input's storage. A constant input is left to constant folding and a
// variable one is state an alias would expose, so neither qualifies. The
// fuse pass marks such operators isView; code generation and the workspace
// planner alias them.
bool isNoCopyView(const Graph& graph, const Operator& op);

// The name of the external function `op`'s region ("npu_0"), or "" when it
// is in none (or partition_graph has not run).
std::string regionName(const Graph& graph, const Operator& op);

}  // namespace loupe::ir
