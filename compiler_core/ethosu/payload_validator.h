// Checks an Ethos-U driver payload the way the software that hands it to
// the NPU does, before anything runs it: Arm's core driver (hal_ethos_u,
// ethosu_driver.c: the COP1 fourcc, the driver actions, the OPTIMIZER_CONFIG
// against the NPU, the command stream and every base address on 16 bytes),
// Linux's accel/ethosu driver (ethosu_gem.c: each command well formed, the
// registers an operation reads written before it, the stream ending with
// NPU_OP_STOP, and per NPU operation and DMA the byte extent of every
// IFM/IFM2/OFM tile, weight and scale stream and DMA end, which
// ethosu_job.c then compares with the size of the memory given for its
// region), and the alignments Vela's command stream generator asserts for
// the hardware (register_command_stream_util.py). It walks the raw words
// with a register file of its own, independent of the functional model's
// decoder, so an emitter and a decoder that agree on a mistake still fail.
// Only the register table (loupe/ethosu/ethosu_registers.h) is shared: it is
// the description of the hardware both follow.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/ethosu/ethosu_payload.h"

namespace loupe::ethosu {

// Each check, named for the rule it enforces.
enum class PayloadRule {
  Fourcc,                // driver: the first word is "COP1"
  PayloadSize,           // driver: a whole number of 32-bit words
  DriverAction,          // driver: only OPTIMIZER_CONFIG, COMMAND_STREAM and NOP
  ActionTruncated,       // an action (a stream's declared length) runs past the payload
  Config,                // driver: OPTIMIZER_CONFIG's CONFIG and ID words fit the NPU
  CommandStreamCount,    // one COMMAND_STREAM (Vela writes one; none runs nothing)
  StreamAlignment,       // driver: the command stream starts on 16 bytes
  StreamLength,          // Linux: a stream of at least one command, below 2^24 words
  UnknownCommand,        // Linux/hardware: reserved bits clear, an opcode the NPU has
  Cmd1Truncated,         // Linux: a cmd1's payload word present
  ForbiddenCommand,      // Linux: no NPU_OP_IRQ (the kernel owns interrupts)
  StopPlacement,         // Linux: NPU_OP_STOP is the last command, and there is one
  RegisterUnset,         // Linux: every register an operation reads was written before it
  FeatureMapFormat,      // Linux: NHWC or NHCWB16 only; U55/U65 element sizes
  Geometry,              // Linux: the IFM the kernel, stride and padding imply is not negative;
                         // an upscaled IFM only under a kernel of stride 1 (not REDUCE_SUM,
                         // not MAX over inserted zeros, not element-wise)
  RegionBounds,          // Linux: each access lies inside its region's memory
  Alignment,             // Vela/hardware: bases, strides and lengths on their multiples
  BaseAddressAlignment,  // driver: every base address given on 16 bytes
};

// "region bounds"; and where the rule comes from: "Arm core driver",
// "Linux accel/ethosu", "Vela".
std::string_view payloadRuleName(PayloadRule rule);
std::string_view payloadRuleSource(PayloadRule rule);

struct PayloadProblem {
  PayloadRule rule = PayloadRule::Fourcc;
  std::uint32_t payloadWord = 0;  // where in the payload (a command's first word)
  std::string message;            // what was expected and what was found
};

// What the driver is given with the payload.
struct PayloadMemory {
  // Per region (index 0-7): the bytes of memory at its base address; a
  // region past the end has none.
  std::vector<std::uint64_t> regionSizes;
  // Per region, where its memory starts, when known (checked for 16-byte
  // alignment, as the core driver does); empty when unknown.
  std::vector<std::uint64_t> baseAddresses;
  // Where the payload lies, when known: its stream must start on 16 bytes.
  std::optional<std::uint64_t> payloadAddress;
};

// One byte range an operation reads or writes, as the checks computed it.
enum class PayloadAccessKind { Ifm, Ifm2, Ofm, Weights, Scales, DmaSource, DmaDestination };
std::string_view payloadAccessKindName(PayloadAccessKind kind);

struct PayloadAccess {
  std::uint32_t command = 0;   // the NPU_OP_* command's word in its stream
  std::string_view operation;  // "NPU_OP_CONV"
  PayloadAccessKind kind = PayloadAccessKind::Ifm;
  int part = 0;                      // a feature map's tile (0-3), a weight or scale stream's core
  int region = 0;                    // -1: the SHRAM (a DMA to or from the NPU's internal memory)
  std::uint64_t begin = 0, end = 0;  // [begin, end)
};

struct PayloadValidation {
  std::vector<PayloadProblem> problems;
  std::vector<PayloadAccess> accesses;
  // Per region, the end of the highest byte any access reaches (Linux's
  // region_size): the least memory the region needs.
  std::array<std::uint64_t, 8> regionExtent{};
  std::uint32_t streamWordOffset = 0, streamWords = 0;  // of the (first) command stream
  std::uint32_t operations = 0;                         // NPU_OP_* commands walked, STOP excluded

  bool ok() const { return problems.empty(); }
  bool has(PayloadRule rule) const;
  // One problem a line: "region bounds (Linux accel/ethosu) at word 57: ..."
  std::string text() const;
};

// Every check on `payload` for the NPU `npu` describes, with `memory`.
PayloadValidation validatePayload(std::span<const std::uint8_t> payload,
                                  const loupe_ethosu_npu_config& npu, const PayloadMemory& memory);

}  // namespace loupe::ethosu
