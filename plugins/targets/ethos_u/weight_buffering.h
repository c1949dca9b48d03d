// Which convolutions of an Ethos-U region get their weights and scales
// copied into the scratch by the NPU's DMA (ethosu::withNpuRegion's
// buffered constants), chosen by the performance model: a copy pays when
// the operation, now fetching its bias and scale records and re-reading its
// weights from the SRAM, is faster by more than the part of the copy the
// operation before does not hide. Vela buffers every weight the SRAM has
// room for; here a copy that costs more than it saves is left out.
#pragma once

#include "ethosu/npu_architecture.h"
#include "ir/graph.h"
#include "targets/ethos_u/ethosu_performance.h"

namespace loupe::targets::ethos_u {

// `graph` with operators first..last compiled into one Ethos-U operator for
// `arch`, with the buffering that `system` (where the constants and the
// scratch live, how fast) estimates fastest. Throws what withNpuRegion throws.
ir::Graph withBufferedWeights(const ir::Graph& graph, int first, int last,
                              const ethosu::NpuArchitecture& arch,
                              const ethosu::SystemConfig& system);

}  // namespace loupe::targets::ethos_u
