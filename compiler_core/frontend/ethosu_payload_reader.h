// The driver payload of a Vela operator ("ethos-u"), decoded once by the C
// decoder of the Ethos-U functional model (runtime_core/crt, loupe/ethosu/):
// the NPU it was compiled for (its OPTIMIZER_CONFIG) and every command
// stream as typed operations. The importer validates payloads with it; info,
// the command-stream listing and code generation read its operations, so no
// C++ code decodes command words a second way.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/ethosu/ethosu_command_stream.h"

namespace loupe::frontend {

// A malformed payload: the decoder's message ("command stream: unknown
// command 0x0155 at word 12").
class EthosUPayloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct EthosUCommandStream {
  std::uint32_t payloadWordOffset = 0;  // of the stream's first word in the payload
  std::uint32_t wordCount = 0;
  const std::uint8_t* words = nullptr;  // in the payload the reader was given
  // In stream order, STOP included; each knows its words [first_word, end_word).
  std::vector<loupe_ethosu_operation> operations;
};

struct EthosUPayload {
  int accelerator = -1;  // enum loupe_ethosu_accelerator
  std::uint32_t configWord = 0, idWord = 0;
  int velaRelease = 0, velaPatch = 0;  // as OPTIMIZER_CONFIG records them
  std::uint32_t payloadWords = 0;
  std::vector<EthosUCommandStream> streams;
  // int16 values of decoded weights the functional model needs at once: the
  // largest OFM block of any operation (loupe_ethosu_workspace_needed).
  std::uint32_t workspaceValues = 0;

  // Operations the NPU runs (STOP excluded), over all streams.
  std::uint32_t operationCount() const;
  // Their multiply-accumulates (ethosuOperationMacs), over all streams.
  std::int64_t macs() const;
};

// Multiply-accumulates of one NPU operation, counted as for the operators
// it stands for: a convolution's OFM elements times its undilated kernel
// and IFM depth, a depthwise convolution's or pooling's times the kernel,
// one per OFM element of an elementwise operation; 0 for DMA and the rest.
std::int64_t ethosuOperationMacs(const loupe_ethosu_operation& op);

// Decodes `payload` (which must outlive the result: streams point into it).
// Throws EthosUPayloadError when the payload or a command stream is
// malformed, has no OPTIMIZER_CONFIG, or names an NPU Loupe does not model.
EthosUPayload readEthosUPayload(std::span<const std::uint8_t> payload);

}  // namespace loupe::frontend
