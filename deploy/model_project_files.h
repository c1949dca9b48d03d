// The parts of a firmware project that do not depend on the platform: the
// generated model code (model/), Loupe's C runtime (runtime/), and the glue
// that hands the model to the board's RPC server (platform/model_descriptor.c).
#pragma once

#include <vector>

#include "codegen/compiled_model.h"
#include "deploy/platform.h"

namespace loupe::deploy {

// model/include, model/src, runtime/include, runtime/src, runtime/config.
std::vector<ProjectFile> modelProjectFiles(const codegen::CompiledModel& model);

// platform/model_descriptor.c: the model's input and output buffers, its
// workspace, and a run function over TVMExecute, as the RPC server's model
// descriptor (tvm/runtime/crt/rpc_server.h).
ProjectFile modelDescriptorFile(const codegen::CompiledModel& model);

}  // namespace loupe::deploy
