// How close to its core's peak an operator runs: the most int8
// multiply-accumulates one instruction of the core can do, as the ISA offers
// them for the kernels Loupe writes (Cortex-M3: MLA, 1; Cortex-M4, M7 and
// M33 with the DSP extension: SMLAD, 2; Cortex-M55 with MVE: VMLADAVA.S8 on
// 16 lanes, 16). A layer at 10% of it is worth work, one at 80% is not.
#pragma once

#include <optional>
#include <string_view>

namespace loupe::deploy {

// By the -mcpu name a platform gives ("cortex-m55"); nothing for a core
// without a known peak (the host, a Cortex-M0).
std::optional<double> peakMacsPerInstruction(std::string_view cpu);

// Whether an operator's MACs are multiply-accumulates of two operands, the
// work the peak is about: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
// TRANSPOSE_CONV, BATCH_MATMUL. A pool's or a SOFTMAX's "MACs" are sums and
// element-wise steps that no MAC instruction does, so their share of the
// peak would mean nothing.
bool isMacKernelOperator(std::string_view type);

}  // namespace loupe::deploy
