// The payload Arm's Ethos-U core driver runs (ethosu_invoke_v3's custom
// data), as Vela lays it out: the fourcc "COP1", an OPTIMIZER_CONFIG action
// with the CONFIG and ID words of the NPU the stream was made for (the
// driver refuses a stream made for another), NOPs so that the command
// stream starts on 16 bytes, and a COMMAND_STREAM action with its words.
// The functional model's parser (loupe/ethosu/ethosu_payload.h) reads it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "loupe/ethosu/ethosu_payload.h"

namespace loupe::ethosu {

// Throws std::invalid_argument for a stream of 2^24 words or more (the
// driver's 64 MiB limit).
std::vector<std::uint8_t> driverPayload(const loupe_ethosu_npu_config& npu,
                                        std::span<const std::uint32_t> commandStream);

}  // namespace loupe::ethosu
