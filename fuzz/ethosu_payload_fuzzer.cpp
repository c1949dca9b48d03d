// libFuzzer target for the Ethos-U functional model (runtime_core/crt,
// loupe/ethosu/): a driver payload from anywhere must never make the payload
// parser, the command-stream decoder or the executor read or write outside
// the payload and the regions given (ASan), nor hit undefined behaviour
// (UBSan); each must fail with a status instead.
// Input: [payload length, u32 little-endian][payload][flash region: the rest].
// The scratch and fast scratch regions are fixed 96 KiB heap blocks (the
// largest Vela arena here is 74,480 bytes), zeroed per input; the flash is
// copied into an exact-size heap block so an overrun shows. Work is bounded:
// max_work per operation and a budget over the whole inference, checked by
// the per-operation hook, keep an input well under 100 ms.
// Seeds: scripts/fuzz.sh ethosu_payload writes one per Vela file of
// tests/data/models/vela (ethosu_fuzz_seeds), none are committed.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "loupe/ethosu/ethosu_command_stream.h"
#include "loupe/ethosu/ethosu_driver.h"
#include "loupe/ethosu/ethosu_payload.h"

namespace {

constexpr std::size_t kScratchBytes = 96 * 1024;
constexpr std::uint64_t kWorkPerOperation = std::uint64_t{1} << 20;
constexpr std::uint64_t kWorkPerInference = std::uint64_t{1} << 21;
constexpr std::uint32_t kOperationsPerInference = 4096;

struct Budget {
  ethosu_driver* driver;
  std::uint32_t operations;
};

int withinBudget(void* user, const loupe_ethosu_operation* op) {
  auto* b = static_cast<Budget*>(user);
  (void)loupe_ethosu_operation_name(op);
  return ++b->operations > kOperationsPerInference || b->driver->machine.macs > kWorkPerInference
             ? 1
             : 0;
}

// The accelerator the payload names, or u55-128.
int acceleratorOf(const std::uint8_t* payload, std::size_t size) {
  loupe_ethosu_payload_cursor cursor;
  loupe_ethosu_action action;
  loupe_ethosu_error err;
  if (loupe_ethosu_payload_begin(&cursor, payload, size, &err) != LOUPE_ETHOSU_OK) {
    return LOUPE_ETHOSU_U55_128;
  }
  while (loupe_ethosu_payload_next(&cursor, &action, &err) == 1) {
    if (action.kind == LOUPE_ETHOSU_DA_OPTIMIZER_CONFIG) {
      const int a = loupe_ethosu_accelerator_from_config_word(action.config_word);
      if (a >= 0) return a;
    }
  }
  return LOUPE_ETHOSU_U55_128;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  std::size_t payloadSize = loupe_le_u32(data);
  if (payloadSize > size - 4) payloadSize = size - 4;
  // Exact-size copies: reading past either shows as a heap overflow.
  std::vector<std::uint8_t> payload(data + 4, data + 4 + payloadSize);
  std::vector<std::uint8_t> flash(data + 4 + payloadSize, data + size);

  // The parser, on its own and against the NPU the payload names.
  const int accelerator = acceleratorOf(payload.data(), payload.size());
  loupe_ethosu_npu_config npu;
  if (loupe_ethosu_npu_config_init(&npu, accelerator) != LOUPE_ETHOSU_OK) std::abort();
  const std::uint8_t* stream = nullptr;
  std::uint32_t words = 0;
  loupe_ethosu_error err;
  (void)loupe_ethosu_payload_parse(payload.data(), payload.size(), &npu, &stream, &words, &err);
  if (loupe_ethosu_payload_parse(payload.data(), payload.size(), nullptr, &stream, &words, &err) ==
      LOUPE_ETHOSU_OK) {
    // The decoder over the whole stream: it must stop within its words.
    static loupe_ethosu_command_decoder decoder;
    static loupe_ethosu_operation op;
    loupe_ethosu_command_decoder_init(&decoder, stream, words);
    std::uint32_t operations = 0;
    while (loupe_ethosu_command_decoder_next(&decoder, &op, &err) == 1) {
      if (op.end_word > words || op.first_word > op.end_word) std::abort();
      if (++operations > words + 1) std::abort();  // every operation takes a word
    }
  }

  // The driver on the functional model, with fixed regions.
  static std::int16_t workspace[1 << 16];
  static ethosu_driver driver;
  if (loupe_ethosu_driver_init(&driver, accelerator, workspace, 1 << 16) != LOUPE_ETHOSU_OK) {
    std::abort();
  }
  driver.machine.max_work = kWorkPerOperation;
  Budget budget{&driver, 0};
  loupe_ethosu_driver_set_hook(&driver, withinBudget, &budget);
  std::vector<std::uint8_t> scratch(kScratchBytes, 0), fast(kScratchBytes, 0);
  std::uint64_t base[3] = {reinterpret_cast<std::uintptr_t>(flash.data()),
                           reinterpret_cast<std::uintptr_t>(scratch.data()),
                           reinterpret_cast<std::uintptr_t>(fast.data())};
  std::size_t sizes[3] = {flash.size(), scratch.size(), fast.size()};
  const int status = ethosu_invoke_v3(&driver, payload.data(), static_cast<int>(payload.size()),
                                      base, sizes, 3, nullptr);
  if (status != 0 && ethosu_last_error_message(&driver)[0] == '\0') std::abort();
  return 0;
}
