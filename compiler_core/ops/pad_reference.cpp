// PAD: copies the input into a larger output, filling the border with 0, or
// with the output zero point for int8 (see pad_common.h). Like TFLite Micro,
// which registers one kernel for PAD and PADV2, a third input is honoured.
#include "ops/pad_common.h"
#include "reference/kernel.h"

namespace loupe::reference {

extern const Kernel kPadKernel{ir::OpType::Pad, checkPadOperands, evalPad};

}  // namespace loupe::reference
