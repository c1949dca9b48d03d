// Operator state in generated code. Variable tensors (the SVDF's activation
// memory, the LSTM's hidden and cell state) are read and updated in place by
// their operator and must keep their values from one run of the model to the
// next, so they cannot live in the workspace, which every run reuses for
// intermediate tensors. Each becomes a static array of the generated AOT
// code, passed to its operator function like any tensor, and starts as
// TFLite Micro's variables do after AllocateTensors: zero, or the zero point
// for int8 (its ResetVariableTensors), ignoring any data the model carries
// for the tensor (AllocateVariables never reads it); a resource variable
// starts from what its init subgraph assigns (ir::Tensor::initialContents). The model header
// declares a reset function that restores these initial values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "tir/prim_func.h"

namespace loupe::codegen {

struct StateBuffer {
  int tensor = -1;
  std::string symbol;  // the static array, e.g. tvmgen_default_state_svdf_state
  std::int64_t elements = 0;
  std::int64_t bytes = 0;
  std::int64_t initialValue = 0;  // of every element, at start-up and after a reset
  // Where the elements start from different values (a resource variable's
  // init subgraph): their bytes, which replace initialValue.
  std::vector<std::uint8_t> initialContents;
};

// The variable tensors the functions take as parameters, in tensor order.
// Throws lowering::LoweringError for a variable tensor the generated code
// cannot keep as state: one that is a model input or output (the
// application's buffer would replace it) or an operator's output.
std::vector<StateBuffer> operatorState(const ir::Graph& graph,
                                       const std::vector<tir::PrimFunc>& functions,
                                       const std::string& modelName);

// The state buffer of `tensor`, or nullptr.
const StateBuffer* findState(const std::vector<StateBuffer>& state, int tensor);

}  // namespace loupe::codegen
