#include "ops/operator_registry.h"
#include "reference/kernel.h"

namespace loupe::reference {

// The kernels are registered with their operators (compiler_core/ops).
const Kernel* findKernel(ir::OpType type) {
  return ops::definitionOf(type).kernel;
}

}  // namespace loupe::reference
