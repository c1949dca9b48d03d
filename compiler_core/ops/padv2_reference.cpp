// PADV2: PAD with the border value given by a scalar third input (for int8,
// quantised like the output); without it, PADV2 behaves as PAD.
#include "ops/pad_common.h"
#include "reference/kernel.h"

namespace loupe::reference {

extern const Kernel kPadV2Kernel{ir::OpType::PadV2, checkPadOperands, evalPad};

}  // namespace loupe::reference
