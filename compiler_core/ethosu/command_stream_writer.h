// Writes an Ethos-U register command stream, every field placed by the one
// register table the decoder reads (loupe/ethosu/ethosu_registers.h), so
// the emitter and the decoder cannot disagree. The NPU keeps a register
// until it is written again; like Vela's generator, the writer leaves out
// a write of the value the register already holds (the decoder carries the
// same state), and always writes the NPU_OP_* commands that start work.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <utility>
#include <vector>

#include "loupe/ethosu/ethosu_registers.h"

namespace loupe::ethosu {

// A field of a command: its bits in the command as one 64-bit value.
struct RegisterField {
  unsigned lsb = 0, width = 0;
};

// LOUPE_ETHOSU_FIELD(NPU_SET_IFM_PRECISION, activation_type)
#define LOUPE_ETHOSU_FIELD(cmd, field)                               \
  ::loupe::ethosu::RegisterField {                                   \
    static_cast<unsigned>(LOUPE_ETHOSU_##cmd##__##field##_LSB),      \
        static_cast<unsigned>(LOUPE_ETHOSU_##cmd##__##field##_WIDTH) \
  }

class CommandStreamWriter {
 public:
  using FieldValues = std::initializer_list<std::pair<RegisterField, std::uint32_t>>;

  // Sets register `code` (enum loupe_ethosu_command_code) to `fields`, the
  // rest of its bits zero; left out when the register holds that already.
  void set(std::uint32_t code, FieldValues fields);
  // A register holding one number: a cmd0's one field (refused when the
  // command has several, or the value does not fit it) or, for a cmd1, its
  // address (up to 40 bits: a base, a stride, a length).
  void setValue(std::uint32_t code, std::uint64_t value);
  // An NPU_OP_* command: always written.
  void operation(std::uint32_t code, FieldValues fields = {});

  const std::vector<std::uint32_t>& words() const { return words_; }
  int writesLeftOut() const { return leftOut_; }

 private:
  static std::pair<std::uint32_t, std::uint32_t> encode(std::uint32_t code, FieldValues fields);
  void append(std::uint32_t code, std::pair<std::uint32_t, std::uint32_t> command);

  std::vector<std::uint32_t> words_;
  std::map<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>> registers_;  // by code
  int leftOut_ = 0;
};

}  // namespace loupe::ethosu
