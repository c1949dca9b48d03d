// The NPU command stream on the compiler side (docs/npu.md): operations to
// the binary stream the software NPU (runtime_core/crt, loupe/npu.h) and a
// future driver execute, the stream back to operations, and a text dump of
// the stream, one command per line, for the GUI and for tests.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "targets/npu/npu_operation.h"

namespace loupe::npu {

class CommandStreamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Each operation as the commands that load every register it reads, then its
// OP_* command. Throws CommandStreamError for a field its command cannot hold
// (a depth beyond 65535, a pad beyond 255, ...).
std::vector<std::uint8_t> encodeCommandStream(std::span<const NpuOperation> operations);

// The operations of a stream, with the fields an operation does not read left
// at their defaults. Throws CommandStreamError naming the byte offset of what
// is wrong.
std::vector<NpuOperation> decodeCommandStream(std::span<const std::uint8_t> stream);

// "0000  SET_IFM  region=2 offset=0 shape=49x10x1 strides=10,1,1 zp=83 scale=0*2^0"
// per command, after a header line. Deterministic; throws like decodeCommandStream.
std::string disassembleCommandStream(std::span<const std::uint8_t> stream);

}  // namespace loupe::npu
