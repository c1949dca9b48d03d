// How long an Ethos-U55/U65 takes for a Vela-compiled command stream, and how
// many bytes it moves to and from each memory: estimated from the decoded
// operations (loupe/ethosu/ethosu_command_stream.h), never from raw words.
//
// The model follows the structure of Vela's npu_performance.py, so that its
// numbers can be set against the ones Vela prints:
//  - a kernel operation (convolution, depthwise, pooling, elementwise) costs
//    its OFM blocks (the block config of its registers) times the larger of
//    the MAC array's cycles per block (whole micro-blocks, sub-kernels of at
//    most 8x8, weight-bandwidth floor, pipeline delays) and the output unit's
//    cycles per block (scaling, activation, bias fetch), each at least a
//    quarter of the block's memory round trip (_estimate_conv_cycles);
//  - a DMA (weights into SRAM, lookup tables into SHRAM) costs its bytes at
//    the slower side's bandwidth plus the source's read latency
//    (measure_mem2mem_cycles);
//  - "NPU cycles" are counted per network operator as Vela's scheduler saw
//    it (estimate_full_op_performance): the NPU operations that are depth
//    slices of one operator (weights too big to buffer at once) are costed
//    as one operation, and its weight DMAs add only what the previous
//    operator's cycles do not hide (single buffer), or the larger of the
//    whole transfer and the compute (double buffer);
//  - apart from that, a timeline of the kernel and DMA engines, held up only
//    by the stream's KERNEL_WAIT and DMA_WAIT commands, says when each
//    operation could run on the hardware, waits included;
//  - memory access cycles: bytes per memory (IFM re-read per OFM block, weights
//    per OFM block position), scaled by burst efficiency, over the memory's
//    bandwidth. Vela's "Total cycles" take per operation the larger of the NPU
//    cycles and the busiest memory's access cycles.
// Which memory a region is in and how fast that memory is comes from a
// SystemConfig: velaDefaultSystem() is Arm Vela's `internal-default`,
// nxpVelaDefaultSystem() what NXP's Vela (github.com/nxp-imx/ethos-u-vela)
// uses instead when given no configuration, as for tests/data/models/vela.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/ethosu_payload_reader.h"
#include "loupe/ethosu/ethosu_command_stream.h"
#include "loupe/ethosu/ethosu_execute.h"
#include "loupe/ethosu/ethosu_payload.h"

namespace loupe::ethosu {

// A memory behind one of the NPU's AXI ports, as Vela's vela.ini describes it.
struct MemoryPort {
  std::string name;            // "SRAM", "Off-chip flash"
  double bytesPerCycle = 8.0;  // per NPU cycle: AXI data width times the memory's clock scale
  int burstBytes = 32;         // the burst length Vela assumes
  int readLatency = 0;         // cycles
  int writeLatency = 0;
};

struct SystemConfig {
  std::string name;
  double coreClockHz = 500e6;
  std::vector<MemoryPort> memories;
  std::array<int, LOUPE_ETHOSU_REGIONS> regionMemory{};  // region -> index into memories
  MemoryPort shram;  // the NPU's own buffer, where lookup tables are DMA'd to
};

// Arm's Vela with `--system-config internal-default --memory-mode internal-default`:
// for Ethos-U55 "High-End Embedded", 500 MHz, SRAM at 8 bytes/cycle (burst 32,
// latency 32) holding the arena (regions 1 and up), off-chip flash at 1
// byte/cycle (burst 128, latency 64) holding the constants (region 0); for
// Ethos-U65 "Client-Server", 1 GHz, SRAM at 16 bytes/cycle and DRAM at 12
// (burst 128, latency 500 read / 250 write) holding constants and arena,
// the SRAM as a cache (region 2, fast scratch).
SystemConfig velaDefaultSystem(const loupe_ethosu_npu_config& npu);

// NXP's Vela (3.10 at a6f6566, which compiled tests/data/models/vela) run
// without --config: its vela.py swaps in an i.MX93 system for
// internal-default, for every accelerator: 1 GHz, SRAM on AXI0 (clock scale
// 1, burst 32, latency 32), DRAM on AXI1 (clock scale 0.234375, burst 128,
// latency 500 read / 250 write); the memory mode stays internal-default, so
// on a U55 the constants (region 0) are in DRAM and the arena in SRAM. DRAM's
// latency is what its bias fetches and weight DMAs pay.
SystemConfig nxpVelaDefaultSystem(const loupe_ethosu_npu_config& npu);

struct MemoryTraffic {
  std::uint64_t bytesRead = 0;
  std::uint64_t bytesWritten = 0;
  double accessCycles = 0.0;  // bytes over bandwidth, burst efficiency included
};

struct OperationEstimate {
  std::uint32_t index = 0;            // the operation's index in its command stream
  std::uint8_t kind = 0;              // enum loupe_ethosu_operation_kind
  std::string name;                   // "CONV", "DMA", "ELEMENTWISE ADD", ...
  std::uint64_t macs = 0;             // as Vela counts them: none for elementwise operations
  std::uint64_t computeCycles = 0;    // kernel operations: the NPU busy on it
  std::uint64_t dmaCycles = 0;        // DMA: the transfer
  std::uint64_t stallCycles = 0;      // kernel operations: waiting on the timeline for a DMA
  std::uint64_t npuCycles = 0;        // its share of its operator's NPU cycles, as Vela counts
  std::vector<MemoryTraffic> memory;  // per SystemConfig::memories
  std::uint64_t memoryCycles = 0;     // the busiest memory's access cycles
  std::uint64_t cycles = 0;           // max(npuCycles, memoryCycles); DMAs: 0
  std::uint64_t start = 0, end = 0;   // on its engine's timeline, from the stream's start
  // Kernel operations: the index of the first NPU operation of the network
  // operator it belongs to (itself, unless it is a later depth slice).
  std::uint32_t operatorStart = 0;
};

struct StreamEstimate {
  std::vector<OperationEstimate> operations;  // all, the waits and STOP included
  std::uint64_t npuCycles = 0;       // Vela's "NPU cycles": per operator, compute and unhidden DMA
  std::uint64_t timelineCycles = 0;  // both engines done, held up by the stream's waits
  std::uint64_t computeCycles = 0;   // the kernel operations alone
  std::uint64_t dmaCycles = 0;       // the DMAs alone
  std::uint64_t totalCycles = 0;     // Vela's "Total cycles": per operation max(NPU, memory)
  std::uint64_t macs = 0;
  std::vector<MemoryTraffic> memory;  // per SystemConfig::memories
  std::uint32_t kernelOperations = 0;
  std::uint32_t dmaOperations = 0;
  std::uint32_t networkOperators = 0;  // kernel operations, depth slices of one operator as one
};

class EstimateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One operation alone: compute (or DMA) cycles, MACs and memory traffic; the
// timeline fields stay 0 and npuCycles is the compute or DMA time.
OperationEstimate estimateOperation(const loupe_ethosu_operation& op,
                                    const loupe_ethosu_npu_config& npu, const SystemConfig& system);

// Decoded operations in stream order (several streams one after the other).
StreamEstimate estimateOperations(std::span<const loupe_ethosu_operation> operations,
                                  const loupe_ethosu_npu_config& npu, const SystemConfig& system);

// A command stream (little-endian words). Throws EstimateError if it does not decode.
StreamEstimate estimateCommandStream(const void* words, std::uint32_t wordCount,
                                     const loupe_ethosu_npu_config& npu,
                                     const SystemConfig& system);

// A driver payload ("COP1"...): every command stream in it, on one timeline.
StreamEstimate estimatePayload(const void* payload, std::size_t size,
                               const loupe_ethosu_npu_config& npu, const SystemConfig& system);

// A payload the importer decoded (analysis::ethosuPayloadOf), on the NPU it
// was compiled for.
StreamEstimate estimatePayload(const frontend::EthosUPayload& payload, const SystemConfig& system);

// The NPU a decoded payload was compiled for. Throws EstimateError if Loupe
// does not model it.
loupe_ethosu_npu_config npuConfigOf(const frontend::EthosUPayload& payload);

// The NPU a payload's OPTIMIZER_CONFIG names (its accelerator configuration).
// Throws EstimateError if the payload does not parse or names none.
loupe_ethosu_npu_config payloadNpuConfig(const void* payload, std::size_t size);

}  // namespace loupe::ethosu
