// A PrimFunc: one lowered operator (or a fused group) as a function over typed
// buffers. Parameters are the graph tensors it reads and writes, in a fixed
// order; constants (weights, biases, per-channel requantisation tables) travel
// with the function so the generated C can keep them in flash beside it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tir/stmt.h"

namespace loupe::tir {

// The name of the scratch parameter in TIR and C.
inline constexpr const char* kScratchParam = "loupe_scratch";

struct PrimFunc {
  std::string name;               // the C symbol, e.g. tvmgen_default_fused_conv_2d_0
  std::vector<Buffer> params;     // scope Param, in call order
  std::vector<int> paramTensors;  // graph tensor index of each param
  std::vector<Buffer> constants;  // scope Constant
  // Per constant (same order), the linker section its array goes into when
  // the memory plan puts it outside the code memory (memory_region.h);
  // empty or "": the default, read-only data beside the code.
  std::vector<std::string> constantSections;
  // Bytes of operator scratch the caller passes after the params, placed in
  // the workspace by the memory planner; the lifted Allocates live at their
  // scratchOffset in it (lift_scratch.h). 0: none.
  std::int64_t scratchBytes = 0;
  Stmt body;
  // Runtime headers declaring the call_extern functions the body calls
  // (intrinsics bring their own), e.g. "loupe/npu_device.h".
  std::vector<std::string> externHeaders;
  std::map<std::string, std::string> attrs;  // "operator": "#3 CONV_2D", ... (printed)
};

}  // namespace loupe::tir
