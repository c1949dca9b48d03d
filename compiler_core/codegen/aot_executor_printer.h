// The AOT executor as C: the model header tvmgen_<name>.h (input and output
// structs, size defines, the TVMModel descriptor, the state reset of models
// with operator state), the run function that calls every operator function
// in order on planned workspace offsets and static state arrays, and the
// const function registry (the system library of rfcs/001) that lets the
// runtime find each operator by name.
#pragma once

#include "codegen/compiled_model.h"

namespace loupe::codegen {

GeneratedFile printModelHeader(const CompiledModel& model);
GeneratedFile printRunSource(const CompiledModel& model);
GeneratedFile printRegistrySource(const CompiledModel& model);

}  // namespace loupe::codegen
