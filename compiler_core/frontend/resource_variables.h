// TFLite's resource variables, resolved when a model is imported. In the
// file a variable is a handle: VAR_HANDLE(container, shared_name) gives a
// RESOURCE tensor that READ_VARIABLE and ASSIGN_VARIABLE take, and CALL_ONCE
// runs an init subgraph (usually VAR_HANDLEs and ASSIGN_VARIABLEs of
// constants) on the first invocation. TFLite Micro looks the handles up at
// run time; here each distinct variable becomes one variable tensor of the
// graph (state kept between runs, as an SVDF's), READ_VARIABLE and
// ASSIGN_VARIABLE take it in place of the handle, and the constants the init
// subgraph assigns become its initial contents. VAR_HANDLE and CALL_ONCE
// leave the graph.
#pragma once

#include <functional>
#include <set>

#include "ir/graph.h"

namespace tflite {
struct Model;
}

namespace loupe::frontend {

// `graph` is subgraph 0 as read (operator indices still those of the file,
// RESOURCE tensors read as int32 and listed in `handleTensors`);
// `readSubgraph` reads another subgraph of the model the same way. Throws
// ImportError, naming the operator, for what Loupe cannot resolve: an init
// subgraph that computes at run time, a READ or ASSIGN before CALL_ONCE, a
// handle that does not come from a VAR_HANDLE.
void resolveResourceVariables(ir::Graph& graph, const tflite::Model& model,
                              const std::set<int>& handleTensors,
                              const std::function<ir::Graph(int subgraph)>& readSubgraph);

}  // namespace loupe::frontend
