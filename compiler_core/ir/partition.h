// Where each operator runs once targets are chosen (the BYOC partitioning of
// TVM: AnnotateTarget, MergeCompilerRegions, PartitionGraph). The passes in
// passes/annotate_targets, merge_target_regions and partition_graph fill
// these; code generation reads them. An operator carries its placement (the
// target that accepted it, every other target's reasons for refusing it, its
// region); the graph carries the external functions the regions became and
// the order in which the main function calls operators and functions.
#pragma once

#include <string>
#include <vector>

namespace loupe::ir {

// One target's refusal of an operator, in words ("stride 4 exceeds 3").
struct TargetRejection {
  std::string target;  // "ethos-u"
  std::vector<std::string> reasons;
};

struct OperatorPlacement {
  // The first target in priority order that accepts the operator ("ethos-u",
  // "c"); empty before annotation, and when no target accepts it.
  std::string target;
  // The targets before and beside it that refused it, with their reasons.
  std::vector<TargetRejection> rejections;
  // Index into Graph::externalFunctions of the region the operator belongs
  // to; -1 for operators on the CPU target "c" (they stay in main).
  int region = -1;
};

// A region of operators offloaded to one target, as a function of its own:
// main passes it `inputs` and gets `outputs` back. Constants the operators
// read (weights, biases) belong to the function and are not inputs.
struct ExternalFunction {
  std::string name;            // "npu_0": the target and its n-th region
  std::string target;          // "ethos-u"
  std::vector<int> operators;  // operator indices, in execution order
  std::vector<int> inputs;     // non-constant tensors read from outside, in first-use order
  std::vector<int> outputs;    // tensors produced inside and read outside or model outputs
  std::vector<int> constants;  // constant tensors the operators read
};

// One call of the partitioned main function: an operator left on the CPU
// or an external function.
struct MainCall {
  int operatorIndex = -1;     // set for a CPU operator
  int externalFunction = -1;  // index into Graph::externalFunctions otherwise
};

}  // namespace loupe::ir
