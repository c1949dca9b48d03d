#include "ethosu/driver_payload.h"

#include <stdexcept>

namespace loupe::ethosu {

namespace {

// An action's tag: the action in bits 0-7, 8 reserved bits, 16 of data.
std::uint32_t tag(std::uint32_t action, std::uint32_t reserved, std::uint32_t data) {
  return action | (reserved << 8) | (data << 16);
}

// Loupe's streams say "release 0, patch 1" as Vela's do: the driver reads
// the field but checks only the CONFIG and ID words.
constexpr std::uint32_t kRelease = 0, kPatch = 1;
constexpr std::size_t kMaxStreamWords = std::size_t{1} << 24;

}  // namespace

std::vector<std::uint8_t> driverPayload(const loupe_ethosu_npu_config& npu,
                                        std::span<const std::uint32_t> commandStream) {
  if (commandStream.size() >= kMaxStreamWords) {
    throw std::invalid_argument("the command stream's " + std::to_string(commandStream.size()) +
                                " words exceed the driver's 64 MiB");
  }
  std::vector<std::uint32_t> words = {
      LOUPE_ETHOSU_FOURCC,
      tag(LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG, 0, kRelease | (kPatch << 4)),
      loupe_ethosu_npu_config_word(&npu),
      loupe_ethosu_npu_id_word(&npu),
  };
  while ((words.size() + 1) % 4 != 0) words.push_back(tag(LOUPE_ETHOSU_DA_NOP, 0, 0));
  const auto length = static_cast<std::uint32_t>(commandStream.size());
  words.push_back(tag(LOUPE_ETHOSU_DA_COMMAND_STREAM, length >> 16, length & 0xffffu));
  words.insert(words.end(), commandStream.begin(), commandStream.end());
  std::vector<std::uint8_t> bytes;
  bytes.reserve(words.size() * 4);
  for (const std::uint32_t word : words) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(word >> (8 * i)));
  }
  return bytes;
}

}  // namespace loupe::ethosu
