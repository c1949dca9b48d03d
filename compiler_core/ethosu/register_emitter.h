// Writes one NPU operation's registers and its NPU_OP_* command, in the
// groups Vela's generator uses (IFM, IFM2, OFM, kernel, weights and scales,
// activation, block and SHRAM), through the writer that leaves out values
// the NPU already holds.
#pragma once

#include "ethosu/command_stream_writer.h"
#include "ethosu/npu_operation.h"

namespace loupe::ethosu {

void emitNpuOperation(CommandStreamWriter& writer, const NpuOperation& op);

// NPU_SET_PARALLEL_MODE at the stream's start on a two-core NPU: both cores
// work on every operation, each on its share of the OFM's channels.
void emitParallelMode(CommandStreamWriter& writer, int cores);

// NPU_OP_KERNEL_WAIT: the stream goes on once at most `outstanding` kernel
// operations are still running.
void emitKernelWait(CommandStreamWriter& writer, int outstanding);

// Starts `dma`; the operation that reads what it copies waits for it
// (NpuOperation::waitsForDma).
void emitDma(CommandStreamWriter& writer, const NpuDma& dma);

// The stream's end: NPU_OP_STOP with the mask the driver expects.
void emitStop(CommandStreamWriter& writer);

}  // namespace loupe::ethosu
